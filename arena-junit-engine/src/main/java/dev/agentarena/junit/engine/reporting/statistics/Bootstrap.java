package dev.agentarena.junit.engine.reporting.statistics;

import java.util.Arrays;
import java.util.Random;

import org.apiguardian.api.API;

/**
 * Seeded percentile bootstrap over cases.
 *
 * <p>{@link Random} is used rather than a faster generator because its sequence is fixed by the Java SE
 * specification, so a seed gives the same intervals on every JDK. Each estimate draws from its own generator, seeded
 * from the run seed and a label naming the estimate, so the order in which results arrive cannot change an interval.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Bootstrap {

    private Bootstrap() {
    }

    public static Random random(long seed, String label) {
        return new Random(seed * 1_000_003L + label.hashCode());
    }

    /** Weighted mean with a 95% percentile interval; weights may be {@code null} for equal weights. */
    public static Estimate mean(double[] values, double[] weights, long seed, String label, int resamples) {
        int n = values.length;
        if (n == 0) {
            return Estimate.empty();
        }
        double point = weightedMean(values, weights, null);
        if (n == 1 || resamples < 1) {
            return new Estimate(point, point, point, n, Estimate.BOOTSTRAP);
        }
        double[] means = resampledMeans(values, weights, random(seed, label), resamples);
        Arrays.sort(means);
        return new Estimate(point, Quantiles.of(means, 0.025), Quantiles.of(means, 0.975), n, Estimate.BOOTSTRAP);
    }

    /**
     * The means of {@code resamples} resamples with replacement. When every value is the same and so is every weight,
     * each resample adds the same terms in the same order, so every mean is bit for bit the mean of the values: that
     * is returned without drawing (a million cases that cost nothing need no two billion draws).
     */
    public static double[] resampledMeans(double[] values, double[] weights, Random random, int resamples) {
        int n = values.length;
        if (constant(values) && (weights == null || constant(weights))) {
            double[] means = new double[resamples];
            Arrays.fill(means, weightedMean(values, weights, null));
            return means;
        }
        int[] picks = new int[n];
        double[] means = new double[resamples];
        for (int b = 0; b < resamples; b++) {
            for (int i = 0; i < n; i++) {
                picks[i] = random.nextInt(n);
            }
            means[b] = weightedMean(values, weights, picks);
        }
        return means;
    }

    private static boolean constant(double[] values) {
        for (double value : values) {
            if (value != values[0]) {
                return false;
            }
        }
        return true;
    }

    /** The weighted mean of the picked indices (all when {@code picks} is null). */
    public static double weightedMean(double[] values, double[] weights, int[] picks) {
        double sum = 0;
        double total = 0;
        int n = picks == null ? values.length : picks.length;
        for (int j = 0; j < n; j++) {
            int i = picks == null ? j : picks[j];
            double w = weights == null ? 1 : weights[i];
            sum += w * values[i];
            total += w;
        }
        return total == 0 ? Double.NaN : sum / total;
    }
}
