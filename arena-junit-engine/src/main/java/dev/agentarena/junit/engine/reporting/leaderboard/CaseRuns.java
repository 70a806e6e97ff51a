package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import dev.agentarena.junit.engine.reporting.ResultRecord;

/** What one scorer said of one case, repeat by repeat. A record arriving twice for a repeat replaces the first. */
final class CaseRuns {

    static final byte UNSEEN = 0;
    static final byte PASSED = 1;
    static final byte FAILED = 2;
    static final byte ERROR = 3;
    static final byte NOT_APPLICABLE = 4;
    static final byte NOT_RUN = 5;

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

    /** Mirrors {@link ResultRecord#counts()}: only a scored pass or fail counts. */
    static byte state(ResultRecord record) {
        String status = record.status();
        if (ResultRecord.ERROR.equals(status)) {
            return ERROR;
        }
        if (ResultRecord.NOT_RUN.equals(status)) {
            return NOT_RUN;
        }
        if (record.counts()) {
            return ResultRecord.PASSED.equals(status) ? PASSED : FAILED;
        }
        return NOT_APPLICABLE;
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

    byte state(int repeat) {
        return states[repeat];
    }

    double score(int repeat) {
        return scores[repeat];
    }

    int count(byte state) {
        int count = 0;
        for (byte s : states) {
            count += s == state ? 1 : 0;
        }
        return count;
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
