package dev.agentarena.junit.engine.reporting.statistics;

import org.apiguardian.api.API;

/** The Wilson score interval: unlike the normal approximation it stays inside [0, 1] and behaves at 0/n and n/n. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Wilson {

    /** The two-sided 97.5% normal quantile. */
    public static final double Z = 1.959963984540054;

    private Wilson() {
    }

    public static Estimate interval(double successes, int n) {
        if (n == 0) {
            return Estimate.empty();
        }
        double p = successes / n;
        double z2 = Z * Z;
        double denominator = 1 + z2 / n;
        double centre = (p + z2 / (2.0 * n)) / denominator;
        double half = Z / denominator * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
        // At 0/n and n/n the bound is exactly 0 or 1; rounding would otherwise leave 0.9999999999999999.
        double low = successes <= 0 ? 0 : Math.max(0, centre - half);
        double high = successes >= n ? 1 : Math.min(1, centre + half);
        return new Estimate(p, low, high, n, Estimate.WILSON);
    }
}
