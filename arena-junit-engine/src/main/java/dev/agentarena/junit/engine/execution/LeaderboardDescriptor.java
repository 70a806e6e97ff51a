package dev.agentarena.junit.engine.execution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.junit.platform.engine.UniqueId;
import org.opentest4j.TestAbortedException;

import dev.agentarena.junit.engine.reporting.allure.AllureReporting;
import dev.agentarena.junit.engine.reporting.leaderboard.Estimate;
import dev.agentarena.junit.engine.reporting.leaderboard.EvalLeaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.ModelEntry;

/**
 * The {@code leaderboard} test of an eval class ({@code arena.leaderboard.tests=true}): passes, prints the eval's
 * table (Surefire keeps it in the test's {@code <system-out>}) and publishes one report entry per model with rank,
 * composite and accuracy. The eval's own {@code leaderboard.html} and {@code .json} are written under
 * {@code leaderboards/<eval>/} in the output directory and attached to the test in Allure.
 */
final class LeaderboardDescriptor extends SummaryDescriptor {

    static final String SEGMENT = "leaderboard";

    LeaderboardDescriptor(UniqueId classId) {
        super(classId.append(SEGMENT, SEGMENT), SEGMENT);
    }

    @Override
    String what() {
        return "leaderboard";
    }

    @Override
    void summarise(RunServices run, String eval, Leaderboard leaderboard) {
        EvalLeaderboard board = leaderboard.eval(eval).orElseThrow(
                () -> new TestAbortedException("leaderboard not applicable: no result of " + eval + " was recorded"));
        System.out.print(leaderboard.toConsoleTable());
        attach(run, eval, leaderboard);
        for (ModelEntry model : board.models()) {
            Map<String, String> entries = new LinkedHashMap<>();
            entries.put("model", model.model());
            entries.put("rank", String.valueOf(model.rank()));
            entries.put("composite", number(model.composite()));
            entries.put("accuracy", number(model.accuracy().value()));
            entries.put("accuracy_ci", interval(model.accuracy()));
            entries.put("pass_rate", number(model.passRate().value()));
            entries.put("cases", String.valueOf(model.cases()));
            entries.put("errors", String.valueOf(model.errors()));
            entries.put("not_run", String.valueOf(model.notRun()));
            entries.put("cost_usd", String.format(Locale.ROOT, "%.6f", model.costUsd()));
            if (model.vsBest() != null) {
                entries.put("vs_best", String.format(Locale.ROOT, "%+.3f, p = %.3f (%s)%s",
                        model.vsBest().meanDifference(), model.vsBest().p(), model.vsBest().test(),
                        model.vsBest().significant() ? ", significant" : ""));
            }
            publish(run, entries);
        }
    }

    /** The eval's own leaderboard files, under {@code leaderboards/}, attached to this test in Allure. */
    private static void attach(RunServices run, String eval, Leaderboard leaderboard) {
        Path directory = run.outputDirectory().resolve("leaderboards").resolve(eval.replaceAll("[^\\w.-]", "_"));
        try {
            leaderboard.writeTo(directory);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot write the leaderboard of " + eval + " to " + directory, e);
        }
        AllureReporting.attachFiles("leaderboard", directory.resolve("leaderboard.html"),
                directory.resolve("leaderboard.json"));
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.4f", value);
    }

    private static String interval(Estimate estimate) {
        return estimate.present() ? String.format(Locale.ROOT, "[%.4f, %.4f] %s n=%d", estimate.low(),
                estimate.high(), estimate.method(), estimate.n()) : "-";
    }
}
