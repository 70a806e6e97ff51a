package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Arrays;

import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * The model calls of one model's cases in one eval, one per case and repeat, in columns indexed by the case's number
 * in the {@link CaseIndex} and by repeat.
 *
 * <p>Every scorer's record of a case and repeat carries the same call's cost, tokens and latency, so they are taken
 * once per repeat (the largest value seen, which tolerates a record written before the cost was known) rather than
 * summed over scorers.
 *
 * <p>Primitive columns rather than an object per case: a million cases with recorded outputs take a few bytes each.
 * The cost, token, latency and weight columns are only allocated once a case has a value other than the default.
 */
final class CaseCalls {

    static final byte CALLED = 1;
    static final byte CACHED = 4;
    static final byte NOT_RUN = 8;
    /** The call itself failed (the model, the task, a hook or the row): its scorers never ran. */
    static final byte CALL_FAILED = 16;

    private int capacity;
    /** Per repeat, per case; a repeat's column is allocated when a record of that repeat arrives. */
    private byte[][] flags = new byte[1][];
    private double[][] cost = new double[1][];
    private long[][] tokensIn = new long[1][];
    private long[][] tokensOut = new long[1][];
    private long[][] tokensCached = new long[1][];
    /** −1 for none. */
    private long[][] latency = new long[1][];
    /** The time a call waited for its turn; allocated once a call waited. */
    private long[][] queue = new long[1][];
    /** Per case; 1.0 until a case has another weight. */
    private double[] weights;

    void add(int i, ResultLog.Entry record) {
        int r = record.repeat;
        ensure(i, r);
        if (Double.isFinite(record.weight) && (weights != null || record.weight != 1.0)) {
            weights = column(weights, 1.0);
            weights[i] = record.weight;
        }
        byte[] f = flags[r] = column(flags[r]);
        if (record.status == ResultStatus.NOT_RUN) {
            f[i] |= NOT_RUN;
            return;
        }
        f[i] |= CALLED;
        if (record.callFailed()) {
            f[i] |= CALL_FAILED;
        }
        if (record.cached) {
            f[i] |= CACHED;
        }
        if (record.cost > 0 || cost[r] != null) {
            cost[r] = column(cost[r]);
            cost[r][i] = Math.max(cost[r][i], record.cost);
        }
        if (record.tokensIn > 0 || tokensIn[r] != null) {
            tokensIn[r] = column(tokensIn[r], 0);
            tokensIn[r][i] = Math.max(tokensIn[r][i], record.tokensIn);
        }
        if (record.tokensOut > 0 || tokensOut[r] != null) {
            tokensOut[r] = column(tokensOut[r], 0);
            tokensOut[r][i] = Math.max(tokensOut[r][i], record.tokensOut);
        }
        if (record.tokensCached > 0 || tokensCached[r] != null) {
            tokensCached[r] = column(tokensCached[r], 0);
            tokensCached[r][i] = Math.max(tokensCached[r][i], record.tokensCached);
        }
        if (record.latency >= 0 && !record.cached) {
            latency[r] = column(latency[r], -1);
            latency[r][i] = Math.max(latency[r][i], record.latency);
        }
        if (record.queue > 0 && !record.cached) {
            queue[r] = column(queue[r], 0);
            queue[r][i] = Math.max(queue[r][i], record.queue);
        }
    }

    /** Room for case {@code i} and repeat {@code r}. */
    private void ensure(int i, int r) {
        if (r >= flags.length) {
            int length = Math.max(r + 1, flags.length * 2);
            flags = Arrays.copyOf(flags, length);
            cost = Arrays.copyOf(cost, length);
            tokensIn = Arrays.copyOf(tokensIn, length);
            tokensOut = Arrays.copyOf(tokensOut, length);
            tokensCached = Arrays.copyOf(tokensCached, length);
            latency = Arrays.copyOf(latency, length);
            queue = Arrays.copyOf(queue, length);
        }
        if (i >= capacity) {
            int old = capacity;
            capacity = Math.max(i + 1, capacity + (capacity >> 1) + 16);
            for (int k = 0; k < flags.length; k++) {
                flags[k] = flags[k] == null ? null : Arrays.copyOf(flags[k], capacity);
                cost[k] = cost[k] == null ? null : Arrays.copyOf(cost[k], capacity);
                tokensIn[k] = tokensIn[k] == null ? null : Arrays.copyOf(tokensIn[k], capacity);
                tokensOut[k] = tokensOut[k] == null ? null : Arrays.copyOf(tokensOut[k], capacity);
                tokensCached[k] = tokensCached[k] == null ? null : Arrays.copyOf(tokensCached[k], capacity);
                latency[k] = grown(latency[k], old, capacity, -1);
                queue[k] = grown(queue[k], old, capacity, 0);
            }
            if (weights != null) {
                weights = Arrays.copyOf(weights, capacity);
                Arrays.fill(weights, old, capacity, 1.0);
            }
        }
    }

    private static long[] grown(long[] column, int old, int capacity, long fill) {
        if (column == null) {
            return null;
        }
        long[] larger = Arrays.copyOf(column, capacity);
        Arrays.fill(larger, old, capacity, fill);
        return larger;
    }

    private byte[] column(byte[] column) {
        return column != null ? column : new byte[capacity];
    }

    private double[] column(double[] column) {
        return column != null ? column : new double[capacity];
    }

    private double[] column(double[] column, double fill) {
        if (column != null) {
            return column;
        }
        double[] created = new double[capacity];
        Arrays.fill(created, fill);
        return created;
    }

    private long[] column(long[] column, long fill) {
        if (column != null) {
            return column;
        }
        long[] created = new long[capacity];
        Arrays.fill(created, fill);
        return created;
    }

    /** How many repeat columns there are (a case may have results for fewer). */
    int repeats() {
        return flags.length;
    }

    boolean has(int i, int repeat, byte flag) {
        return flags[repeat] != null && (flags[repeat][i] & flag) != 0;
    }

    double weight(int i) {
        return weights == null ? 1.0 : weights[i];
    }

    double cost(int i, int repeat) {
        return cost[repeat] == null ? 0 : cost[repeat][i];
    }

    long tokensIn(int i, int repeat) {
        return tokensIn[repeat] == null ? 0 : tokensIn[repeat][i];
    }

    long tokensOut(int i, int repeat) {
        return tokensOut[repeat] == null ? 0 : tokensOut[repeat][i];
    }

    long tokensCached(int i, int repeat) {
        return tokensCached[repeat] == null ? 0 : tokensCached[repeat][i];
    }

    /** The call's latency, or −1 when it was cached or reported none. */
    long latency(int i, int repeat) {
        return has(i, repeat, CACHED) || latency[repeat] == null ? -1 : latency[repeat][i];
    }

    /** The time the call waited for its turn, 0 when it did not (or was cached). */
    long queue(int i, int repeat) {
        return has(i, repeat, CACHED) || queue[repeat] == null ? 0 : queue[repeat][i];
    }
}
