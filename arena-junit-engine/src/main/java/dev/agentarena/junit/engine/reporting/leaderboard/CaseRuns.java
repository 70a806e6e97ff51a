package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * What one scorer said of one case, repeat by repeat. A record arriving twice for a repeat replaces the first.
 *
 * <p>Each repeat's status is kept as one byte, its {@link ResultStatus} ordinal plus one (0 for a repeat not seen),
 * with {@link #CALL_FAILED} set on an error that came before the scorer ran: a million cases fit in a few megabytes.
 */
final class CaseRuns {

    private static final byte UNSEEN = 0;
    /** Set on an error result without an output: the case's call (task, model, hook or row) failed, not the scorer. */
    private static final byte CALL_FAILED = 0x40;
    private static final byte STATUS_BITS = 0x3f;
    private static final ResultStatus[] STATUSES = ResultStatus.values();

    private double[] scores = new double[1];
    private byte[] states = new byte[1];
    /** Metric name to its value in each repeat, {@code NaN} where a repeat did not report it. */
    private Map<String, double[]> metrics;

    void add(ResultRecord record) {
        int repeat = record.repeat();
        grow(repeat + 1);
        states[repeat] = state(record);
        scores[repeat] = record.score() == null ? Double.NaN : record.score();
        for (Map.Entry<String, Double> metric : record.metrics().entrySet()) {
            if (metric.getValue() == null || !Double.isFinite(metric.getValue())) {
                continue;
            }
            if (metrics == null) {
                metrics = new HashMap<>();
            }
            double[] values = metrics.computeIfAbsent(metric.getKey(), name -> nans(states.length));
            if (values.length < states.length) {
                int old = values.length;
                values = Arrays.copyOf(values, states.length);
                Arrays.fill(values, old, values.length, Double.NaN);
                metrics.put(metric.getKey(), values);
            }
            values[repeat] = metric.getValue();
        }
    }

    /** The status that counts: a passed or failed result without a score (none today) counts as not applicable. */
    private static byte state(ResultRecord record) {
        ResultStatus status = record.status().counts() && !record.counts() ? ResultStatus.NOT_APPLICABLE
                : record.status();
        return (byte) ((status.ordinal() + 1) | (callFailed(record) ? CALL_FAILED : 0));
    }

    /**
     * Whether an error result says the case's call failed before any scorer ran (the model call, the task, a hook, or
     * an unreadable row): such a result has no output, while a scorer that threw had one to grade.
     */
    static boolean callFailed(ResultRecord record) {
        return record.status() == ResultStatus.ERROR && record.output() == null;
    }

    private void grow(int size) {
        if (states.length < size) {
            int length = Math.max(size, states.length * 2);
            scores = Arrays.copyOf(scores, length);
            states = Arrays.copyOf(states, length);
        }
    }

    private static double[] nans(int length) {
        double[] values = new double[length];
        Arrays.fill(values, Double.NaN);
        return values;
    }

    int repeats() {
        return states.length;
    }

    /** The repeat's status, or {@code null} when no result of it arrived. */
    ResultStatus status(int repeat) {
        return states[repeat] == UNSEEN ? null : STATUSES[(states[repeat] & STATUS_BITS) - 1];
    }

    double score(int repeat) {
        return scores[repeat];
    }

    /** How many repeats have this status. */
    int count(ResultStatus status) {
        byte state = (byte) (status.ordinal() + 1);
        int count = 0;
        for (byte s : states) {
            count += (s & STATUS_BITS) == state ? 1 : 0;
        }
        return count;
    }

    /** How many repeats are errors because the case's call failed, before the scorer ran. */
    int callErrors() {
        int count = 0;
        for (byte s : states) {
            count += (s & CALL_FAILED) != 0 ? 1 : 0;
        }
        return count;
    }

    /** How many repeats have a result. */
    int seen() {
        int count = 0;
        for (byte s : states) {
            count += s == UNSEEN ? 0 : 1;
        }
        return count;
    }

    /** Whether any repeat reported a metric. */
    boolean hasMetrics() {
        return metrics != null;
    }

    /** Adds each metric's per-repeat values into {@code sums} as {sum, count}. */
    void addMetrics(Map<String, double[]> sums) {
        if (metrics == null) {
            return;
        }
        metrics.forEach((name, values) -> {
            double[] sum = sums.computeIfAbsent(name, n -> new double[2]);
            for (double value : values) {
                if (!Double.isNaN(value)) {
                    sum[0] += value;
                    sum[1]++;
                }
            }
        });
    }
}
