package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Arrays;

import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * The model calls of one case, one per repeat.
 *
 * <p>Every scorer's record of a case and repeat carries the same call's cost, tokens and latency, so they are taken
 * once per repeat (the largest value seen, which tolerates a record written before the cost was known) rather than
 * summed over scorers.
 */
final class CaseCalls {

    static final byte CALLED = 1;
    static final byte CACHED = 4;
    static final byte NOT_RUN = 8;
    /** The call itself failed (the model, the task, a hook or the row): its scorers never ran. */
    static final byte CALL_FAILED = 16;

    double weight = 1.0;
    private double[] cost = new double[1];
    private long[] tokensIn = new long[1];
    private long[] tokensOut = new long[1];
    private long[] latency = {-1};
    private byte[] flags = new byte[1];

    void add(ResultRecord record) {
        int r = record.repeat();
        if (flags.length <= r) {
            int length = Math.max(r + 1, flags.length * 2);
            int old = flags.length;
            cost = Arrays.copyOf(cost, length);
            tokensIn = Arrays.copyOf(tokensIn, length);
            tokensOut = Arrays.copyOf(tokensOut, length);
            latency = Arrays.copyOf(latency, length);
            Arrays.fill(latency, old, length, -1L);
            flags = Arrays.copyOf(flags, length);
        }
        if (Double.isFinite(record.weight())) {
            weight = record.weight();
        }
        if (record.status() == ResultStatus.NOT_RUN) {
            flags[r] |= NOT_RUN;
            return;
        }
        flags[r] |= CALLED;
        if (CaseRuns.callFailed(record)) {
            flags[r] |= CALL_FAILED;
        }
        if (record.cached()) {
            flags[r] |= CACHED;
        }
        cost[r] = Math.max(cost[r], record.costUsd());
        tokensIn[r] = Math.max(tokensIn[r], record.tokensIn());
        tokensOut[r] = Math.max(tokensOut[r], record.tokensOut());
        if (record.latencyMs() != null && !record.cached()) {
            latency[r] = Math.max(latency[r], record.latencyMs());
        }
    }

    int repeats() {
        return flags.length;
    }

    boolean has(int repeat, byte flag) {
        return (flags[repeat] & flag) != 0;
    }

    double cost(int repeat) {
        return cost[repeat];
    }

    long tokensIn(int repeat) {
        return tokensIn[repeat];
    }

    long tokensOut(int repeat) {
        return tokensOut[repeat];
    }

    /** The call's latency, or −1 when it was cached or reported none. */
    long latency(int repeat) {
        return has(repeat, CACHED) ? -1 : latency[repeat];
    }
}
