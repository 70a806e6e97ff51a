package dev.agentarena.junit.engine.reporting.statistics;

import java.util.Arrays;
import java.util.Random;

import org.apiguardian.api.API;

/**
 * Seeded percentile bootstrap over cases.
 *
 * <p>The draws follow {@link Random}'s sequence, which the Java SE specification fixes, so a seed gives the same
 * intervals on every JDK. Each estimate draws from its own generator, seeded from the run seed and a label naming the
 * estimate, so the order in which results arrive cannot change an interval.
 *
 * <p>A leaderboard of n cases draws n × resamples indices per estimate (20 million for 10,000 cases), so the draws do
 * not go through {@code Random} itself, whose every step is an atomic compare-and-set: {@link Draws} is the same
 * generator on a plain field, and each resample's mean is summed as its indices are drawn, in the same order, so every
 * mean is bit for bit the one {@code Random} would give.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Bootstrap {

    private Bootstrap() {
    }

    /** The seed of an estimate's generator: the run seed and the estimate's label. */
    public static long seed(long seed, String label) {
        return seed * 1_000_003L + label.hashCode();
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
        double[] means = resampledMeans(values, unitWeights(weights) ? null : weights, seed(seed, label), resamples);
        Arrays.sort(means);
        return new Estimate(point, Quantiles.of(means, 0.025), Quantiles.of(means, 0.975), n, Estimate.BOOTSTRAP);
    }

    /**
     * The weighted means of {@code resamples} resamples with replacement, drawn as {@code new Random(seed)} would
     * draw them: resample after resample, each index by {@link Random#nextInt(int)}.
     */
    public static double[] resampledMeans(double[] values, double[] weights, long seed, int resamples) {
        Draws draws = new Draws(seed, values.length);
        double[] means = new double[resamples];
        for (int b = 0; b < resamples; b++) {
            means[b] = draws.resampledMean(values, weights);
        }
        return means;
    }

    /** Whether every weight is 1: each term is then the value itself and the total the count, bit for bit. */
    private static boolean unitWeights(double[] weights) {
        if (weights == null) {
            return true;
        }
        for (double weight : weights) {
            if (weight != 1.0) {
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

    /**
     * {@code new Random(seed).nextInt(bound)}, again and again, as its specification defines it (a 48-bit linear
     * congruential generator), on a plain field: one estimate's draws stay on one thread.
     */
    static final class Draws {

        private static final long MULTIPLIER = 0x5DEECE66DL;
        private static final long ADDEND = 0xBL;
        private static final long MASK = (1L << 48) - 1;

        private final int bound;
        private final boolean powerOfTwo;
        // u / bound for every u in [0, 2^31) is (u * magic) >>> shift (Granlund and Montgomery, "Division by
        // invariant integers using multiplication", theorem 4.2 with N = 31): a multiplication instead of a division
        private final long magic;
        private final int shift;
        private long state;

        Draws(long seed, int bound) {
            if (bound <= 0) {
                throw new IllegalArgumentException("bound must be positive");
            }
            this.bound = bound;
            this.powerOfTwo = (bound & -bound) == bound;
            int log = 32 - Integer.numberOfLeadingZeros(bound - 1);
            this.shift = 31 + log;
            this.magic = ((1L << shift) + bound - 1) / bound;
            this.state = (seed ^ MULTIPLIER) & MASK;
        }

        /** {@code u % bound} for {@code u} in [0, 2^31). */
        int remainder(int u) {
            return u - (int) ((u * magic) >>> shift) * bound;
        }

        private int next31() {
            state = (state * MULTIPLIER + ADDEND) & MASK;
            return (int) (state >>> 17);
        }

        /**
         * The weighted mean of one resample of {@code bound} values: the indices drawn one by one, each term added as
         * it is drawn. A method of its own, called once per resample, so that it is compiled early in a run that
         * calls it only for the leaderboard at its end.
         */
        double resampledMean(double[] values, double[] weights) {
            if (powerOfTwo) {
                return meanOfDraws(values, weights);
            }
            // next() written out, with the generator's state in a local, for a loop that runs cold
            long s = state;
            int m = bound - 1;
            long mul = magic;
            int sh = shift;
            double sum = 0;
            double total = 0;
            for (int j = 0; j < bound; j++) {
                s = (s * MULTIPLIER + ADDEND) & MASK;
                int r;
                for (int u = (int) (s >>> 17); u - (r = u - (int) ((u * mul) >>> sh) * bound) + m < 0;
                        u = (int) (s >>> 17)) {
                    s = (s * MULTIPLIER + ADDEND) & MASK;
                }
                double w = weights == null ? 1 : weights[r];
                sum += w * values[r];
                total += w;
            }
            state = s;
            return total == 0 ? Double.NaN : sum / total;
        }

        private double meanOfDraws(double[] values, double[] weights) {
            double sum = 0;
            double total = 0;
            for (int j = 0; j < bound; j++) {
                int i = next();
                double w = weights == null ? 1 : weights[i];
                sum += w * values[i];
                total += w;
            }
            return total == 0 ? Double.NaN : sum / total;
        }

        /** The next index in [0, bound), as {@link Random#nextInt(int)}. */
        int next() {
            int r = next31();
            if (powerOfTwo) {
                return (int) ((bound * (long) r) >> 31);
            }
            int m = bound - 1;
            for (int u = r; u - (r = remainder(u)) + m < 0; u = next31()) {
                // a draw from the incomplete last block: Random draws again
            }
            return r;
        }
    }
}
