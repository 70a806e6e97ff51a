package dev.agentarena.junit.engine.reporting.statistics;

import org.apiguardian.api.API;

/** Quantiles by linear interpolation between closest ranks (R type 7, numpy's default), so results match both. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Quantiles {

    private Quantiles() {
    }

    /** The q-quantile of sorted values; {@code NaN} when empty. */
    public static double of(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double h = (sorted.length - 1) * q;
        int lo = (int) Math.floor(h);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }
}
