package dev.agentarena.junit.engine.fixtures.browser;

import java.util.ArrayList;
import java.util.List;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Models;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.model.Model;

/**
 * Two runs of one eval for the report's browser tests: {@link #run} 1 is the previous run, 2 the current one. Between
 * them {@code regresses} turns wrong (its output changes word by word), {@code improves} turns right, {@code errors}
 * starts throwing, {@code removed} goes and {@code added} comes; {@code small-fails} is wrong on sim_small only, in
 * both. The {@code hostile} case carries markup in its id, input, output and reasons
 * ({@link HostileLeaderboardFixture}'s strings, each setting {@code window.__pwned} if it ran).
 */
@Eval(value = "report-fixture", scorers = "exact_match")
@Models({"sim_small", "sim_large"})
public class ReportFixture {

    /** Which run this is: 1 the previous, 2 the current. */
    public static volatile int run = 2;

    /** The hostile case's id. */
    public static final String HOSTILE_CASE = "hostile " + HostileLeaderboardFixture.IMG;
    /** The hostile case's input. */
    public static final String HOSTILE_INPUT = "input " + HostileLeaderboardFixture.SCRIPT
            + " javascript:window.__pwned='url'";
    /** The hostile case's output. */
    public static final String HOSTILE_OUTPUT = "output " + HostileLeaderboardFixture.IMG
            + HostileLeaderboardFixture.SVG + HostileLeaderboardFixture.ENTITY;

    @EvalDataset
    List<EvalCase> cases() {
        List<EvalCase> cases = new ArrayList<>(List.of(EvalCase.of("steady", "say yes", "yes"),
                EvalCase.of("regresses", "say yes", "yes"), EvalCase.of("improves", "say yes", "yes"),
                EvalCase.of("small-fails", "say yes", "yes"), EvalCase.of("errors", "say yes", "yes"),
                EvalCase.of(HOSTILE_CASE, HOSTILE_INPUT, "yes")));
        cases.add(run == 1 ? EvalCase.of("removed", "say yes", "yes") : EvalCase.of("added", "say yes", "yes"));
        return cases;
    }

    @Task
    String answer(EvalCase evalCase, Model model) {
        return switch (evalCase.id()) {
            case "regresses" -> run == 1 ? "yes" : "no, certainly not";
            case "improves" -> run == 1 ? "no" : "yes";
            case "small-fails" -> model.key().equals("sim_small") ? "maybe" : "yes";
            case "errors" -> {
                if (run == 2) {
                    throw new IllegalStateException("the task failed " + HostileLeaderboardFixture.SCRIPT);
                }
                yield "yes";
            }
            case HOSTILE_CASE -> HOSTILE_OUTPUT;
            default -> "yes";
        };
    }

    /** Passes every output, with a reason that quotes it. */
    @Scorer
    ScoreResult quoted(String output) {
        return ScoreResult.pass("quoted " + HostileLeaderboardFixture.SVG + " " + output);
    }
}
