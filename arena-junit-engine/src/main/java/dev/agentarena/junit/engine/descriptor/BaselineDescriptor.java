package dev.agentarena.junit.engine.descriptor;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.platform.engine.UniqueId;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.execution.RunServices;
import dev.agentarena.junit.engine.reporting.baseline.Baseline;
import dev.agentarena.junit.engine.reporting.baseline.BaselineComparison;
import dev.agentarena.junit.engine.reporting.baseline.BaselineResult;
import dev.agentarena.junit.engine.reporting.baseline.BaselineSettings;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;

/**
 * The {@code baseline} test of an eval class. With {@code arena.baseline.update=true} it writes the eval into the
 * baseline file; otherwise it compares the eval with the file and fails when an entry regressed (beyond tolerance,
 * or significantly by the paired test) or was refused (the scorer version or the repeat reducer changed).
 */
final class BaselineDescriptor extends SummaryDescriptor {

    /** The one command that writes a new baseline, quoted in messages. */
    static final String UPDATE_COMMAND = "mvn test -D" + Constants.BASELINE_UPDATE + "=true";

    private final BaselineSettings settings;
    private final RuntimeException configurationError;

    BaselineDescriptor(UniqueId classId, BaselineSettings settings,
            RuntimeException configurationError) {
        super(ArenaUniqueIds.baseline(classId), settings != null && settings.update() ? "baseline update"
                : "baseline");
        this.settings = settings;
        this.configurationError = configurationError;
    }

    @Override
    String what() {
        return settings != null && settings.update() ? "baseline update" : "baseline comparison";
    }

    @Override
    void summarise(ArenaExecutionContext context, RunServices run, String eval, Leaderboard leaderboard)
            throws Exception {
        if (configurationError != null) {
            throw configurationError;
        }
        if (leaderboard.eval(eval).isEmpty()) {
            throw new TestAbortedException(what() + " not applicable: no result of " + eval + " was recorded");
        }
        if (settings.update()) {
            int entries = run.baseline(settings.path()).update(leaderboard, eval);
            run.listeners().baselineWritten(eval, settings.path(), entries);
            publish(context, new LinkedHashMap<>(Map.of("baseline", "baseline: wrote " + entries + " entries of "
                    + eval + " to " + settings.path())));
            return;
        }
        if (!Files.isRegularFile(settings.path())) {
            String message = "no baseline file at " + settings.path() + "; write one with " + UPDATE_COMMAND;
            if (settings.required()) {
                throw new IllegalStateException(message + " (" + Constants.BASELINE_PATH + " names it)");
            }
            throw new TestAbortedException(message);
        }
        Baseline baseline = run.baseline(settings.path()).read(eval);
        if (baseline.entries().isEmpty()) {
            throw new TestAbortedException("baseline " + settings.path() + " has no entry for " + eval
                    + "; add it with " + UPDATE_COMMAND);
        }
        BaselineComparison comparison = BaselineComparison.compare(baseline, leaderboard, settings.tolerance());
        run.listeners().baselineCompared(eval, comparison);
        Map<BaselineResult.Status, Integer> counts = new EnumMap<>(BaselineResult.Status.class);
        List<String> failures = new ArrayList<>();
        for (BaselineResult result : comparison.results()) {
            counts.merge(result.status(), 1, Integer::sum);
            if (result.failed()) {
                failures.add(result.message());
            }
        }
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("baseline", settings.path().toString());
        entries.put("tolerance", String.format(Locale.ROOT, "%.4f", settings.tolerance()));
        counts.forEach((status, count) -> entries.put(status.name().toLowerCase(Locale.ROOT), String.valueOf(count)));
        publish(context, entries);
        if (!failures.isEmpty()) {
            throw new AssertionFailedError(String.join("\n", failures));
        }
    }
}
