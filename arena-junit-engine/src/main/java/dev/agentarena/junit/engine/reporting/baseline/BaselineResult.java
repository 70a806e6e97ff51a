package dev.agentarena.junit.engine.reporting.baseline;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.statistics.PairedTest;

/**
 * The comparison of one eval, model and scorer with its baseline.
 *
 * @param eval the eval
 * @param model the model
 * @param scorer the scorer
 * @param status the verdict
 * @param baselineAccuracy the baseline's accuracy, {@code NaN} for a new entry
 * @param accuracy this run's accuracy, {@code NaN} for a missing entry
 * @param delta accuracy minus baseline accuracy
 * @param test the paired test on shared case ids, {@code null} when not compared
 * @param message one line for the console and the test report
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record BaselineResult(String eval, String model, String scorer, Status status, double baselineAccuracy,
        double accuracy, double delta, PairedTest test, String message) {

    /** Verdicts. */
    public enum Status {
        /** Within tolerance and not a significant change. */
        UNCHANGED,
        /** Better beyond tolerance, or significantly better. */
        IMPROVED,
        /** Worse beyond tolerance, or significantly worse: fails. */
        REGRESSED,
        /** Not compared because the scorer version or the repeat reducer changed: fails until re-baselined. */
        REFUSED,
        /** In this run only. */
        NEW,
        /** In the baseline only (for example, an eval that was not selected). */
        MISSING
    }

    /** Whether this result should fail the build. */
    public boolean failed() {
        return status == Status.REGRESSED || status == Status.REFUSED;
    }
}
