package dev.agentarena.junit.engine.reporting;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.reporting.allure.AllureReporter;
import dev.agentarena.junit.engine.reporting.baseline.BaselineComparison;
import dev.agentarena.junit.engine.reporting.gates.GateResult;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.results.ArenaComparison;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ScoreSummary;
import dev.agentarena.junit.engine.results.ShardManifest;

/**
 * The run's chain of {@link RunListener}s, in the order they hear each event, and the one place where the outputs
 * of a run are registered ({@link #standard}).
 *
 * <p>Every listener hears every event, even when one before it throws: the first exception is rethrown once all have
 * heard it, so a broken output fails the test it concerns without hiding the result from the other outputs.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RunListeners implements RunListener {

    private final List<RunListener> listeners;
    /*
     * The listeners that hear each per-result event, in order: those whose class overrides it (for a result without
     * a test, also those that hear it as a reported result, the default). A run has millions of results and a
     * handful of listeners, most of which ignore most of them: these arrays, looped over directly, cost a call per
     * listener that listens, and no lambda per result.
     */
    private final RunListener[] hearComputed;
    private final RunListener[] hearReported;
    private final RunListener[] hearWithoutTest;
    /** Those that hear a case finish (once per case: the console's progress). */
    private final RunListener[] hearCaseFinished;

    private RunListeners(List<RunListener> listeners) {
        this.listeners = List.copyOf(listeners);
        this.hearComputed = hearing(this.listeners, "resultComputed");
        this.hearReported = hearing(this.listeners, "resultReported");
        this.hearWithoutTest = hearing(this.listeners, "resultWithoutTest", "resultReported");
        List<RunListener> caseFinished = new ArrayList<>();
        for (RunListener listener : this.listeners) {
            if (overrides(listener, "caseFinished", RunningDataset.class, int.class, double.class)) {
                caseFinished.add(listener);
            }
        }
        this.hearCaseFinished = caseFinished.toArray(RunListener[]::new);
    }

    /** The listeners whose class overrides one of the methods (each taking a record and a transcript). */
    private static RunListener[] hearing(List<RunListener> listeners, String... methods) {
        List<RunListener> hearing = new ArrayList<>();
        for (RunListener listener : listeners) {
            for (String method : methods) {
                if (overrides(listener, method)) {
                    hearing.add(listener);
                    break;
                }
            }
        }
        return hearing.toArray(RunListener[]::new);
    }

    private static boolean overrides(RunListener listener, String method) {
        return overrides(listener, method, ResultRecord.class, CaseTranscript.class);
    }

    private static boolean overrides(RunListener listener, String method, Class<?>... parameters) {
        try {
            return listener.getClass().getMethod(method, parameters).getDeclaringClass() != RunListener.class;
        }
        catch (NoSuchMethodException | SecurityException e) {
            // cannot tell: it hears the event
            return true;
        }
    }

    /** A chain of these listeners, in this order. */
    public static RunListeners of(List<RunListener> listeners) {
        return new RunListeners(listeners);
    }

    /** The listeners, in order. */
    public List<RunListener> listeners() {
        return listeners;
    }

    private void each(Consumer<RunListener> event) {
        RuntimeException first = null;
        for (RunListener listener : listeners) {
            try {
                event.accept(listener);
            }
            catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                }
                else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Every listener hears it; what one throws is ignored (see {@link RunListener#resultComputed}). */
    @Override
    public void resultComputed(ResultRecord record, CaseTranscript transcript) {
        for (RunListener listener : hearComputed) {
            try {
                listener.resultComputed(record, transcript);
            }
            catch (RuntimeException e) {
                // prepared again when the result is reported, where a real problem fails its test
            }
        }
    }

    @Override
    public void resultReported(ResultRecord record, CaseTranscript transcript) {
        RuntimeException first = null;
        for (RunListener listener : hearReported) {
            try {
                listener.resultReported(record, transcript);
            }
            catch (RuntimeException e) {
                first = first(first, e);
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public void resultWithoutTest(ResultRecord record, CaseTranscript transcript) {
        RuntimeException first = null;
        for (RunListener listener : hearWithoutTest) {
            try {
                listener.resultWithoutTest(record, transcript);
            }
            catch (RuntimeException e) {
                first = first(first, e);
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** The first exception, the later ones suppressed by it. */
    private static RuntimeException first(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    @Override
    public void casesStarted(RunningDataset dataset) {
        each(listener -> listener.casesStarted(dataset));
    }

    @Override
    public void casesCounted(RunningDataset dataset, long total) {
        each(listener -> listener.casesCounted(dataset, total));
    }

    @Override
    public void caseFinished(RunningDataset dataset, int errors, double costUsd) {
        // once per case: the listeners that hear it, looped over directly, and no lambda per case
        RuntimeException first = null;
        for (RunListener listener : hearCaseFinished) {
            try {
                listener.caseFinished(dataset, errors, costUsd);
            }
            catch (RuntimeException e) {
                first = first(first, e);
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public void casesWaiting(RunningDataset dataset, List<String> waitingOn) {
        each(listener -> listener.casesWaiting(dataset, waitingOn));
    }

    @Override
    public void casesFinished(RunningDataset dataset) {
        each(listener -> listener.casesFinished(dataset));
    }

    @Override
    public void scoreSummaryReported(ScoreSummary summary) {
        each(listener -> listener.scoreSummaryReported(summary));
    }

    @Override
    public void costEstimated(String eval, String estimate) {
        each(listener -> listener.costEstimated(eval, estimate));
    }

    @Override
    public void summaryStarted(String eval, String summary) {
        each(listener -> listener.summaryStarted(eval, summary));
    }

    @Override
    public void summarySkipped(String eval, String summary, String reason) {
        each(listener -> listener.summarySkipped(eval, summary, reason));
    }

    @Override
    public void evalLeaderboardReported(String eval, Leaderboard leaderboard, Path files) {
        each(listener -> listener.evalLeaderboardReported(eval, leaderboard, files));
    }

    @Override
    public void gateChecked(GateResult result) {
        each(listener -> listener.gateChecked(result));
    }

    @Override
    public void baselineWritten(String eval, Path file, int entries) {
        each(listener -> listener.baselineWritten(eval, file, entries));
    }

    @Override
    public void baselineCompared(String eval, BaselineComparison comparison) {
        each(listener -> listener.baselineCompared(eval, comparison));
    }

    @Override
    public void arenaCompared(ArenaComparison comparison) {
        each(listener -> listener.arenaCompared(comparison));
    }

    @Override
    public void arenaReported(String eval, dev.agentarena.junit.engine.reporting.arena.ArenaTable table) {
        each(listener -> listener.arenaReported(eval, table));
    }

    @Override
    public void warning(String message) {
        each(listener -> listener.warning(message));
    }

    @Override
    public void shardFinished(ShardManifest manifest, Path directory) {
        each(listener -> listener.shardFinished(manifest, directory));
    }

    @Override
    public void runFinished(RunReport report) {
        each(listener -> listener.runFinished(report));
    }
}
