package dev.agentarena.junit.engine.reporting.statistics;

import org.apiguardian.api.API;

/**
 * A rate or mean with its 95% confidence interval.
 *
 * @param value the point estimate, {@code NaN} when nothing was counted
 * @param low the interval's lower bound
 * @param high the interval's upper bound
 * @param n how many cases it rests on
 * @param method {@code wilson}, {@code bootstrap} or {@code none}
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record Estimate(double value, double low, double high, int n, String method) {

    /** Interval method of proportions. */
    public static final String WILSON = "wilson";
    /** Interval method of means. */
    public static final String BOOTSTRAP = "bootstrap";
    /** No interval: nothing was counted. */
    public static final String NONE = "none";

    public static Estimate empty() {
        return new Estimate(Double.NaN, Double.NaN, Double.NaN, 0, NONE);
    }

    /** Whether anything was counted. */
    public boolean present() {
        return n > 0 && !Double.isNaN(value);
    }
}
