package dev.agentarena.junit.engine.reporting.leaderboard;

/** Quantiles by linear interpolation between closest ranks (R type 7, numpy's default), so results match both. */
final class Quantiles {

    private Quantiles() {
    }

    /** The q-quantile of sorted values; {@code NaN} when empty. */
    static double of(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double h = (sorted.length - 1) * q;
        int lo = (int) Math.floor(h);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }
}
