package dev.agentarena.junit.engine.reporting.statistics;

import java.util.Arrays;
import java.util.Comparator;

import org.apiguardian.api.API;

/**
 * Spearman's rank correlation: Pearson's correlation of the ranks, ties given their average rank (as
 * {@code scipy.stats.spearmanr} computes it).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Spearman {

    private Spearman() {
    }

    /** ρ of two samples of the same length; {@code NaN} with fewer than 3 pairs or a constant sample. */
    public static double rho(double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("samples of " + x.length + " and " + y.length + " values");
        }
        if (x.length < 3) {
            return Double.NaN;
        }
        return pearson(ranks(x), ranks(y));
    }

    /** Ranks from 1, ties averaged. */
    static double[] ranks(double[] values) {
        Integer[] order = new Integer[values.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble(i -> values[i]));
        double[] ranks = new double[values.length];
        int start = 0;
        while (start < order.length) {
            int end = start;
            while (end + 1 < order.length && values[order[end + 1]] == values[order[start]]) {
                end++;
            }
            double rank = (start + end) / 2.0 + 1;
            for (int t = start; t <= end; t++) {
                ranks[order[t]] = rank;
            }
            start = end + 1;
        }
        return ranks;
    }

    private static double pearson(double[] x, double[] y) {
        double mx = Arrays.stream(x).average().orElse(0);
        double my = Arrays.stream(y).average().orElse(0);
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
            syy += (y[i] - my) * (y[i] - my);
        }
        return sxx == 0 || syy == 0 ? Double.NaN : sxy / Math.sqrt(sxx * syy);
    }
}
