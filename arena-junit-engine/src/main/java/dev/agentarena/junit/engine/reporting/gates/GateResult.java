package dev.agentarena.junit.engine.reporting.gates;

import org.apiguardian.api.API;

/**
 * The outcome of one gate on one target.
 *
 * @param rule the gate
 * @param status the outcome
 * @param eval the eval, {@code null} for a whole-run gate
 * @param model the model, {@code null} for a gate over an eval or the run
 * @param scorer the scorer, {@code null} for a model-level gate
 * @param value the gated value, {@code NaN} when there was none
 * @param message one line naming eval, model, scorer, value and threshold
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record GateResult(GateRule rule, Status status, String eval, String model, String scorer, double value,
        String message) {

    /** Outcomes. */
    public enum Status {
        /** The bound holds. */
        PASSED,
        /** The bound does not hold, there was nothing to measure, or the gate is ambiguous. */
        FAILED,
        /** The gate names nothing in this run (for example an eval that was not selected): reported, not failed. */
        UNMATCHED
    }

    /** Whether this result should fail the build. */
    public boolean failed() {
        return status == Status.FAILED;
    }
}
