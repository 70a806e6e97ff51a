package dev.agentarena.junit.engine.reporting.statistics;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;

import org.apiguardian.api.API;

/**
 * How well two raters agree: Cohen's kappa over a confusion matrix, Spearman's rank correlation (average ranks for
 * ties), the mean absolute error, and percentile bootstrap intervals of any of them over resampled pairs. It exists to
 * measure a judge (or any scorer) against people's labels; see {@code docs/guides/judges.md} for the formulas.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class Agreement {

    private Agreement() {
    }

    /**
     * Cohen's kappa of a square confusion matrix ({@code counts[i][j]}: rater one said {@code i}, rater two {@code j}):
     * {@code (po - pe) / (1 - pe)}, with {@code po} the share of the diagonal and {@code pe} the agreement expected by
     * chance from the margins. {@code NaN} when it is undefined: no pairs, or both raters always gave one and the same
     * category ({@code pe = 1}).
     */
    public static double kappa(long[][] counts) {
        int k = counts.length;
        double n = 0;
        double diagonal = 0;
        double[] rows = new double[k];
        double[] columns = new double[k];
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++) {
                n += counts[i][j];
                rows[i] += counts[i][j];
                columns[j] += counts[i][j];
            }
            diagonal += counts[i][i];
        }
        if (n == 0) {
            return Double.NaN;
        }
        double observed = diagonal / n;
        double expected = 0;
        for (int i = 0; i < k; i++) {
            expected += rows[i] / n * (columns[i] / n);
        }
        if (expected >= 1) {
            return Double.NaN;
        }
        return (observed - expected) / (1 - expected);
    }

    /** Cohen's kappa of two raters' pass/fail verdicts, pair by pair. */
    public static double kappa(boolean[] first, boolean[] second) {
        return kappa(confusion(first, second));
    }

    /** The 2×2 matrix of two raters' verdicts: {@code [first passed ? 0 : 1][second passed ? 0 : 1]}. */
    public static long[][] confusion(boolean[] first, boolean[] second) {
        long[][] counts = new long[2][2];
        for (int i = 0; i < first.length; i++) {
            counts[first[i] ? 0 : 1][second[i] ? 0 : 1]++;
        }
        return counts;
    }

    /** The share of pairs on which two raters gave the same verdict; {@code NaN} for none. */
    public static double percentAgreement(boolean[] first, boolean[] second) {
        if (first.length == 0) {
            return Double.NaN;
        }
        int same = 0;
        for (int i = 0; i < first.length; i++) {
            same += first[i] == second[i] ? 1 : 0;
        }
        return (double) same / first.length;
    }

    /**
     * Spearman's rho: Pearson's correlation of the two series' ranks, tied values sharing the mean of their ranks.
     * {@code NaN} with fewer than two pairs, or when a series is constant.
     */
    public static double spearman(double[] first, double[] second) {
        if (first.length < 2) {
            return Double.NaN;
        }
        return pearson(ranks(first), ranks(second));
    }

    /** The ranks of values, from 1, ties sharing the mean of the ranks they span. */
    static double[] ranks(double[] values) {
        int n = values.length;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble(i -> values[i]));
        double[] ranks = new double[n];
        int start = 0;
        while (start < n) {
            int end = start;
            while (end + 1 < n && values[order[end + 1]] == values[order[start]]) {
                end++;
            }
            double rank = (start + end) / 2.0 + 1;
            for (int i = start; i <= end; i++) {
                ranks[order[i]] = rank;
            }
            start = end + 1;
        }
        return ranks;
    }

    /** Pearson's correlation; {@code NaN} when a series is constant. */
    static double pearson(double[] x, double[] y) {
        int n = x.length;
        double meanX = 0;
        double meanY = 0;
        for (int i = 0; i < n; i++) {
            meanX += x[i];
            meanY += y[i];
        }
        meanX /= n;
        meanY /= n;
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            sxy += (x[i] - meanX) * (y[i] - meanY);
            sxx += (x[i] - meanX) * (x[i] - meanX);
            syy += (y[i] - meanY) * (y[i] - meanY);
        }
        if (sxx == 0 || syy == 0) {
            return Double.NaN;
        }
        return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
    }

    /** The mean absolute difference of two series; {@code NaN} for none. */
    public static double meanAbsoluteError(double[] first, double[] second) {
        if (first.length == 0) {
            return Double.NaN;
        }
        double sum = 0;
        for (int i = 0; i < first.length; i++) {
            sum += Math.abs(first[i] - second[i]);
        }
        return sum / first.length;
    }

    /**
     * A statistic of {@code n} pairs with its 95% percentile bootstrap interval: {@code resamples} resamples of the
     * pair indices with replacement, drawn by a {@link SplittableRandom} seeded with {@link Bootstrap#seed}; resamples
     * where the statistic is undefined ({@code NaN}: every pair alike) are left out, and with fewer than half of them
     * defined the interval is {@code NaN}.
     *
     * @param statistic the statistic of the pairs at the given indices
     */
    public static Estimate bootstrap(int n, ToDoubleFunction<int[]> statistic, long seed, String label,
            int resamples) {
        if (n == 0) {
            return Estimate.empty();
        }
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        double point = statistic.applyAsDouble(all);
        if (resamples < 1 || Double.isNaN(point)) {
            return new Estimate(point, Double.NaN, Double.NaN, n, Estimate.BOOTSTRAP);
        }
        SplittableRandom random = new SplittableRandom(Bootstrap.seed(seed, label));
        double[] values = new double[resamples];
        int defined = 0;
        int[] picks = new int[n];
        for (int r = 0; r < resamples; r++) {
            for (int i = 0; i < n; i++) {
                picks[i] = random.nextInt(n);
            }
            double value = statistic.applyAsDouble(picks);
            if (!Double.isNaN(value)) {
                values[defined++] = value;
            }
        }
        if (defined * 2 < resamples) {
            return new Estimate(point, Double.NaN, Double.NaN, n, Estimate.BOOTSTRAP);
        }
        double[] sorted = Arrays.copyOf(values, defined);
        Arrays.sort(sorted);
        return new Estimate(point, Quantiles.of(sorted, 0.025), Quantiles.of(sorted, 0.975), n, Estimate.BOOTSTRAP);
    }

    /** The values at the given indices. */
    public static double[] pick(double[] values, int[] indices) {
        double[] picked = new double[indices.length];
        for (int i = 0; i < indices.length; i++) {
            picked[i] = values[indices[i]];
        }
        return picked;
    }

    /** The verdicts at the given indices. */
    public static boolean[] pick(boolean[] values, int[] indices) {
        boolean[] picked = new boolean[indices.length];
        for (int i = 0; i < indices.length; i++) {
            picked[i] = values[indices[i]];
        }
        return picked;
    }
}
