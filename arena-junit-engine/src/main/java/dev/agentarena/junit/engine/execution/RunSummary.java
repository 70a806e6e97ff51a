package dev.agentarena.junit.engine.execution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.opentest4j.AssertionFailedError;

import dev.agentarena.junit.engine.reporting.leaderboard.GateResult;
import dev.agentarena.junit.engine.reporting.leaderboard.GateRule;
import dev.agentarena.junit.engine.reporting.leaderboard.GateSpec;
import dev.agentarena.junit.engine.reporting.leaderboard.Gates;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.ModelEntry;

/**
 * The end of a run: writes {@code leaderboard.json} and {@code leaderboard.html} into the output directory, prints
 * the console table and the spend, and checks the whole-run gates, which fail the engine's root when they do not
 * hold (they belong to no eval class).
 */
final class RunSummary {

    private final RunServices run;
    private final List<GateRule> runGates;

    RunSummary(RunServices run, List<GateRule> runGates) {
        this.run = run;
        this.runGates = runGates;
    }

    void finish() {
        if (!run.recordedAny()) {
            return;
        }
        Leaderboard leaderboard = run.runLeaderboard();
        Path directory = run.outputDirectory();
        try {
            leaderboard.writeTo(directory);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot write the leaderboard to " + directory, e);
        }
        StringBuilder out = new StringBuilder("[arena] leaderboard: ")
                .append(directory.resolve(Leaderboard.HTML_FILE)).append('\n')
                .append(leaderboard.toConsoleTable());
        Budget budget = run.budget();
        budget.limitUsd().ifPresent(limit -> {
            int notRun = leaderboard.evals().stream().flatMap(e -> e.models().stream())
                    .mapToInt(ModelEntry::notRun).sum();
            out.append("[arena] spent ").append(Budget.usd(budget.spentUsd())).append(" of the budget of ")
                    .append(Budget.usd(limit))
                    .append(notRun == 0 ? "" : "; " + notRun + " model calls not run: " + budget.reason())
                    .append('\n');
        });
        System.out.print(out);
        checkRunGates(leaderboard);
    }

    private void checkRunGates(Leaderboard leaderboard) {
        if (runGates.isEmpty()) {
            return;
        }
        List<String> failed = new ArrayList<>();
        for (GateResult result : Gates.evaluate(leaderboard, new GateSpec(runGates))) {
            System.out.println("[arena] " + result.message());
            if (result.failed()) {
                failed.add(result.message());
            }
        }
        if (!failed.isEmpty()) {
            throw new AssertionFailedError(String.join("\n", failed));
        }
    }
}
