package dev.agentarena.junit;

import org.apiguardian.api.API;

/**
 * What a {@link ScoreResult} says of an output besides its score: passed, failed, or not graded at all.
 *
 * <p>Three values rather than a {@code Boolean} whose {@code null} meant "unscored", so that no result is unscored by
 * accident: a scorer says so with {@link ScoreResult#unscored(double, String)}. An unscored result (the
 * {@code manual} type, a judge that abstained) is reported as not applicable and kept out of accuracy; it is written
 * as {@code "passed": null} in {@code results.jsonl}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public enum Verdict {

    /** The output passed. */
    PASSED,

    /** The output failed. */
    FAILED,

    /** No verdict: the output was collected for human grading, or the grader abstained. */
    UNSCORED;

    /** The verdict of a yes/no answer. */
    public static Verdict of(boolean passed) {
        return passed ? PASSED : FAILED;
    }

    /** Whether this verdict grades the output, that is, is not {@link #UNSCORED}. */
    public boolean isScored() {
        return this != UNSCORED;
    }
}
