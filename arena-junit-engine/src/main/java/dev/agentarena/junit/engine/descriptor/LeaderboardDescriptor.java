package dev.agentarena.junit.engine.descriptor;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.junit.platform.engine.UniqueId;
import org.opentest4j.TestAbortedException;

import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.execution.RunServices;
import dev.agentarena.junit.engine.reporting.leaderboard.EvalLeaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.ModelEntry;
import dev.agentarena.junit.engine.reporting.leaderboard.ScorerEntry;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;

/**
 * The {@code leaderboard} test of an eval class ({@code arena.leaderboard.tests=true}): passes, prints the eval's
 * table (Surefire keeps it in the test's {@code <system-out>}) and publishes one report entry per model with rank,
 * composite, accuracy and, beside it, the errored results kept out of accuracy (per model and per scorer). The eval's own {@code leaderboard.html} and {@code .json} are written under
 * {@code leaderboards/<eval>/} in the output directory and attached to the test in Allure.
 */
final class LeaderboardDescriptor extends SummaryDescriptor {

    LeaderboardDescriptor(UniqueId classId) {
        super(ArenaUniqueIds.leaderboard(classId), "leaderboard");
    }

    @Override
    String what() {
        return "leaderboard";
    }

    @Override
    void summarise(ArenaExecutionContext context, RunServices run, String eval, Leaderboard leaderboard) {
        EvalLeaderboard board = leaderboard.eval(eval).orElseThrow(
                () -> new TestAbortedException("leaderboard not applicable: no result of " + eval + " was recorded"));
        Path files = run.leaderboards().writeEvalFiles(eval, leaderboard);
        run.listeners().evalLeaderboardReported(eval, leaderboard, files);
        for (ModelEntry model : board.models()) {
            Map<String, String> entries = new LinkedHashMap<>();
            entries.put("model", model.model());
            entries.put("rank", String.valueOf(model.rank()));
            entries.put("composite", number(model.composite()));
            entries.put("accuracy", number(model.accuracy().value()));
            entries.put("accuracy_ci", interval(model.accuracy()));
            if (model.errorsOutnumberScored()) {
                entries.put("accuracy_warning", model.errorsOutnumberScoredText());
            }
            entries.put("errors", String.valueOf(model.errors()));
            entries.put("call_errors", String.valueOf(model.callErrors()));
            entries.put("scorer_errors", String.valueOf(model.scorerErrors()));
            entries.put("pass_rate", number(model.passRate().value()));
            entries.put("cases", String.valueOf(model.cases()));
            entries.put("not_run", String.valueOf(model.notRun()));
            entries.put("cost_usd", String.format(Locale.ROOT, "%.6f", model.costUsd()));
            if (model.vsBest() != null) {
                entries.put("vs_best", String.format(Locale.ROOT, "%+.3f, p = %.3f (%s)%s",
                        model.vsBest().meanDifference(), model.vsBest().p(), model.vsBest().test(),
                        model.vsBest().significant() ? ", significant" : ""));
            }
            for (ScorerEntry scorer : model.scorers()) {
                entries.put("scorer." + scorer.scorer(), String.format(Locale.ROOT,
                        "accuracy %s, errors %d (%d from failed calls, %d from the scorer), n=%d",
                        number(scorer.accuracy().value()), scorer.errors(), scorer.callErrors(),
                        scorer.scorerErrors(), scorer.accuracy().n()));
            }
            publish(context, entries);
        }
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.4f", value);
    }

    private static String interval(Estimate estimate) {
        return estimate.present() ? String.format(Locale.ROOT, "[%.4f, %.4f] %s n=%d", estimate.low(),
                estimate.high(), estimate.method(), estimate.n()) : "-";
    }
}
