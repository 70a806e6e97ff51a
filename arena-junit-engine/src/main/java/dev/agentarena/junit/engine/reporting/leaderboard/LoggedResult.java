package dev.agentarena.junit.engine.reporting.leaderboard;

import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * One record of a {@link ResultLog} as it is read back: what a leaderboard reads of a result, in primitive fields and
 * name numbers. One instance is reused for every record of a replay, so reading a million results back allocates
 * nothing per result; a consumer must copy what it keeps.
 */
final class LoggedResult {

    /** The names of the log read so far, by number; 0 is none ({@code null}). */
    String[] names = new String[16];
    int eval;
    int model;
    int scorer;
    int version;
    int registry;
    /** The case id's bytes ({@link CaseIdBytes}): the first {@link #caseIdLength}. */
    byte[] caseId = new byte[32];
    int caseIdLength;
    /** Whether the case id is the previous record's. */
    boolean sameCase;
    int repeat;
    ResultStatus status;
    /** {@code NaN} when the result has no score. */
    double score;
    boolean hasScore;
    boolean cached;
    boolean hasOutput;
    /** −1 when the result reported none. */
    long latency;
    /** The time the calls waited for their turn, apart from {@link #latency}; 0 when they did not wait. */
    long queue;
    long tokensIn;
    long tokensOut;
    long tokensCached;
    double cost;
    double weight;
    int metricCount;
    int[] metricNames = new int[4];
    /** {@code NaN} for a metric reported as {@code null}. */
    double[] metricValues = new double[4];

    /** The name with this number, {@code null} for 0. */
    String name(int number) {
        return names[number];
    }

    /** Whether the result counts towards accuracy: it has a score and its status counts. */
    boolean counts() {
        return hasScore && status.counts();
    }

    /** An error result without an output: the case's call failed before any scorer ran (see CaseRuns#callFailed). */
    boolean callFailed() {
        return status == ResultStatus.ERROR && !hasOutput;
    }
}
