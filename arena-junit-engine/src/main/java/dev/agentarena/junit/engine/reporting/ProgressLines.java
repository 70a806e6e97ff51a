package dev.agentarena.junit.engine.reporting;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

import dev.agentarena.junit.engine.results.Money;
import dev.agentarena.junit.engine.results.SinkText;

/**
 * The console's progress lines ({@code arena.output.progress}): past the first score lines, and in summary mode from
 * the start, a long run would print nothing until it ends. Each dataset run counts its cases done, errors and spend;
 * when a case is done and the console has been quiet for the interval, one line per dataset run in progress says how
 * far it has come, and a dataset run that had such a line gets one more when it ends. The console prints what this
 * returns ({@link ConsoleReporter} is the only class that writes to standard output).
 *
 * <p>Lines are asked for when a case is done, on the thread that reports it, never from a timer: Surefire and the
 * console launcher attribute output to the test that is running, and a line in the middle of another test's output
 * would belong to it. The clock is a parameter, so that tests need no waiting.
 */
final class ProgressLines {

    private static final String PREFIX = "[arena] progress: ";

    private final long intervalNanos;
    private final LongSupplier clock;
    private final Map<RunningDataset, Tally> running = new LinkedHashMap<>();
    private long lastOutput;
    /**
     * The dataset run whose case was done last, and its tally: the next case done is nearly always of the same run
     * (a container reports its cases one after the other), found by identity rather than by hashing the run's names.
     */
    private RunningDataset lastDataset;
    private Tally lastTally;

    /** What one dataset run has done so far. */
    private static final class Tally {
        final long started;
        long done;
        long total = -1;
        long errors;
        double costUsd;
        boolean shown;

        Tally(long started) {
            this.started = started;
        }
    }

    /**
     * @param interval how long the console stays quiet before a progress line (zero: a line after every case)
     * @param clock {@link System#nanoTime} but in tests
     */
    ProgressLines(Duration interval, LongSupplier clock) {
        this.intervalNanos = interval.toNanos();
        this.clock = clock;
        this.lastOutput = clock.getAsLong();
    }

    /** The console printed something: the next progress line waits a whole interval from now. */
    synchronized void printed() {
        lastOutput = clock.getAsLong();
    }

    synchronized void started(RunningDataset dataset) {
        running.put(dataset, new Tally(clock.getAsLong()));
        // a run of the same names again has a new tally
        lastDataset = null;
        lastTally = null;
    }

    synchronized void counted(RunningDataset dataset, long total) {
        Tally tally = running.get(dataset);
        if (tally != null) {
            tally.total = total;
        }
    }

    /** Counts a case done; the lines to print now, if the console has been quiet for the interval. */
    synchronized List<String> caseFinished(RunningDataset dataset, int errors, double costUsd) {
        Tally tally = dataset == lastDataset ? lastTally : running.get(dataset);
        if (tally == null) {
            return List.of();
        }
        lastDataset = dataset;
        lastTally = tally;
        tally.done++;
        tally.errors += errors;
        tally.costUsd += costUsd;
        long now = clock.getAsLong();
        if (now - lastOutput < intervalNanos) {
            return List.of();
        }
        List<String> lines = new ArrayList<>(running.size());
        running.forEach((each, counts) -> {
            counts.shown = true;
            lines.add(inProgress(each, counts, now));
        });
        return lines;
    }

    /**
     * The dataset run waits for its next case, its model's calls on what {@code waitingOn} says (its batches): when
     * the console has been quiet for the interval, the usual line of each dataset run in progress, this one's followed
     * by what it waits on ({@code ..., waiting on batch batch_abc: 400/1000 done, in_progress, 2m 05s elapsed}).
     */
    synchronized List<String> waiting(RunningDataset dataset, List<String> waitingOn) {
        Tally tally = running.get(dataset);
        long now = clock.getAsLong();
        if (tally == null || waitingOn.isEmpty() || now - lastOutput < intervalNanos) {
            return List.of();
        }
        List<String> lines = new ArrayList<>(running.size());
        running.forEach((each, counts) -> {
            counts.shown = true;
            String line = inProgress(each, counts, now);
            lines.add(each.equals(dataset) ? line + ", waiting on " + String.join("; ", waitingOn) : line);
        });
        return lines;
    }

    /** The last line of a dataset run that printed progress: how many cases, in how long. */
    synchronized Optional<String> finished(RunningDataset dataset) {
        Tally tally = running.remove(dataset);
        if (tally == lastTally) {
            lastDataset = null;
            lastTally = null;
        }
        if (tally == null || !tally.shown) {
            return Optional.empty();
        }
        StringBuilder line = name(dataset).append(count(tally.done)).append(tally.done == 1 ? " case" : " cases")
                .append(" done in ").append(duration(clock.getAsLong() - tally.started));
        return Optional.of(spent(line, tally).toString());
    }

    /**
     * {@code [arena] progress: tickets sim_small tickets: 1,234 of 5,000 cases, 45.6 cases/s, about 1m 25s left, 3
     * errors, $0.0123 spent}; without a known total, {@code 1,234 cases done} and no time left.
     */
    private static String inProgress(RunningDataset dataset, Tally tally, long now) {
        StringBuilder line = name(dataset).append(count(tally.done));
        if (tally.total >= 0) {
            line.append(" of ").append(count(tally.total)).append(tally.total == 1 ? " case" : " cases");
        }
        else {
            line.append(tally.done == 1 ? " case done" : " cases done");
        }
        long elapsed = Math.max(1, now - tally.started);
        double perSecond = tally.done * 1e9 / elapsed;
        line.append(", ").append(String.format(Locale.ROOT, perSecond < 10 ? "%.2f" : "%.1f", perSecond))
                .append(" cases/s");
        if (tally.total >= tally.done && tally.done > 0) {
            long leftNanos = (long) ((tally.total - tally.done) * (double) elapsed / tally.done);
            line.append(", about ").append(duration(leftNanos)).append(" left");
        }
        return spent(line, tally).toString();
    }

    private static StringBuilder name(RunningDataset dataset) {
        return new StringBuilder(PREFIX).append(SinkText.name(dataset.eval(), 200)).append(' ')
                .append(SinkText.name(dataset.model(), 200)).append(' ')
                .append(SinkText.name(dataset.dataset(), 200)).append(": ");
    }

    private static StringBuilder spent(StringBuilder line, Tally tally) {
        return line.append(", ").append(count(tally.errors)).append(tally.errors == 1 ? " error, " : " errors, ")
                .append(Money.usd(tally.costUsd)).append(" spent");
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** {@code 45s}, {@code 2m 05s}, {@code 1h 02m}. */
    static String duration(long nanos) {
        long seconds = Math.round(nanos / 1e9);
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%dm %02ds", seconds / 60, seconds % 60);
        }
        return String.format(Locale.ROOT, "%dh %02dm", seconds / 3600, seconds % 3600 / 60);
    }
}
