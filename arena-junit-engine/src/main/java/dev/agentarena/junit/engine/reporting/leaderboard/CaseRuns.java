package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * What one scorer said of one model's cases in one eval, case by case and repeat by repeat, in columns indexed by the
 * case's number in the {@link CaseIndex}. A record arriving twice for a case and repeat replaces the first.
 *
 * <p>Each repeat's status is kept as one byte, its {@link ResultStatus} ordinal plus one (0 for a repeat not seen),
 * with {@link #CALL_FAILED} set on an error that came before the scorer ran, and its score as a double: a million
 * cases take about ten bytes each.
 */
final class CaseRuns {

    private static final byte UNSEEN = 0;
    /** Set on an error result without an output: the case's call (task, model, hook or row) failed, not the scorer. */
    private static final byte CALL_FAILED = 0x40;
    private static final byte STATUS_BITS = 0x3f;
    private static final ResultStatus[] STATUSES = ResultStatus.values();

    private int capacity;
    /** Per repeat, per case; a repeat's columns are allocated when a record of that repeat arrives. */
    private byte[][] states = new byte[1][];
    private double[][] scores = new double[1][];
    /** Metric name to its value per repeat and case, {@code NaN} where a repeat did not report it. */
    private Map<String, double[][]> metrics;

    void add(int i, ResultLog.Entry record) {
        int repeat = record.repeat;
        ensure(i, repeat);
        if (states[repeat] == null) {
            states[repeat] = new byte[capacity];
            scores[repeat] = new double[capacity];
        }
        states[repeat][i] = state(record);
        scores[repeat][i] = record.score;
        for (int m = 0; m < record.metricCount; m++) {
            double value = record.metricValues[m];
            if (!Double.isFinite(value)) {
                continue;
            }
            if (metrics == null) {
                metrics = new HashMap<>();
            }
            String metric = record.metricNames[m];
            double[][] values = metrics.computeIfAbsent(metric, name -> new double[states.length][]);
            if (values.length < states.length) {
                values = Arrays.copyOf(values, states.length);
                metrics.put(metric, values);
            }
            if (values[repeat] == null) {
                values[repeat] = nans(capacity, 0);
            }
            values[repeat][i] = value;
        }
    }

    /** The status that counts: a passed or failed result without a score (none today) counts as not applicable. */
    private static byte state(ResultLog.Entry record) {
        ResultStatus status = record.status.counts() && !record.counts() ? ResultStatus.NOT_APPLICABLE
                : record.status;
        return (byte) ((status.ordinal() + 1) | (record.callFailed() ? CALL_FAILED : 0));
    }

    /** Room for case {@code i} and repeat {@code repeat}. */
    private void ensure(int i, int repeat) {
        if (repeat >= states.length) {
            int length = Math.max(repeat + 1, states.length * 2);
            states = Arrays.copyOf(states, length);
            scores = Arrays.copyOf(scores, length);
        }
        if (i >= capacity) {
            int old = capacity;
            capacity = Math.max(i + 1, capacity + (capacity >> 1) + 16);
            for (int r = 0; r < states.length; r++) {
                states[r] = states[r] == null ? null : Arrays.copyOf(states[r], capacity);
                scores[r] = scores[r] == null ? null : Arrays.copyOf(scores[r], capacity);
            }
            if (metrics != null) {
                for (double[][] values : metrics.values()) {
                    for (int r = 0; r < values.length; r++) {
                        values[r] = values[r] == null ? null : nans(capacity, old, values[r]);
                    }
                }
            }
        }
    }

    private static double[] nans(int length, int from, double[] copied) {
        double[] values = Arrays.copyOf(copied, length);
        Arrays.fill(values, from, length, Double.NaN);
        return values;
    }

    private static double[] nans(int length, int from) {
        return nans(length, from, new double[0]);
    }

    /** How many repeat columns there are (a case may have results for fewer). */
    int repeats() {
        return states.length;
    }

    /**
     * The repeat's state in one byte, read once where several questions are asked of it: 0 when no result of it
     * arrived, otherwise see {@link #status(byte)} and {@link #callFailed(byte)}.
     */
    byte state(int i, int repeat) {
        return i < capacity && states[repeat] != null ? states[repeat][i] : UNSEEN;
    }

    /** The status of a seen repeat's {@link #state}. */
    static ResultStatus status(byte state) {
        return STATUSES[(state & STATUS_BITS) - 1];
    }

    /** Whether a seen repeat's {@link #state} is an error because the case's call failed, before the scorer ran. */
    static boolean callFailed(byte state) {
        return (state & CALL_FAILED) != 0;
    }

    double score(int i, int repeat) {
        return scores[repeat][i];
    }

    /** Whether any result reported a metric: when none did, there is no metric to aggregate case by case. */
    boolean hasMetrics() {
        return metrics != null;
    }

    /** Hands each metric the case reported to {@code sink}: the sum and count of its values over the repeats. */
    void addMetrics(int i, MetricSums sink) {
        if (metrics == null) {
            return;
        }
        metrics.forEach((name, values) -> {
            double sum = 0;
            int count = 0;
            for (double[] column : values) {
                if (column != null && i < column.length && !Double.isNaN(column[i])) {
                    sum += column[i];
                    count++;
                }
            }
            if (count > 0) {
                sink.add(name, sum, count);
            }
        });
    }

    /** Receives one case's metric sums. */
    interface MetricSums {
        void add(String metric, double sum, int count);
    }
}
