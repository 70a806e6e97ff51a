package dev.agentarena.junit.engine.reporting.statistics;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;

import org.apiguardian.api.API;

/**
 * Seeded percentile bootstrap over cases.
 *
 * <p>Invariant: a seed gives the same intervals on every JDK and in any order of arrival. The draws follow
 * {@link Random}'s sequence, which the Java SE specification fixes, and each estimate draws from its own generator,
 * seeded from the run seed and a label naming the estimate. A resample is drawn either as one multinomial draw over
 * the few distinct terms (when there is at most one per {@value #CASES_PER_COUNTED_TERM} cases, as scores and costs
 * usually have) or case by case through {@link Draws}, {@code Random}'s generator on a plain field, giving bit for bit
 * the means {@code Random} would give; both are exact bootstraps.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Bootstrap {

    /** Cases per distinct term from which a resample is drawn as counts of its terms rather than case by case. */
    static final int CASES_PER_COUNTED_TERM = 64;

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
        double[] means = resampledMeans(values, weights, seed(seed, label), resamples);
        Arrays.sort(means);
        return new Estimate(point, Quantiles.of(means, 0.025), Quantiles.of(means, 0.975), n, Estimate.BOOTSTRAP);
    }

    /**
     * The weighted means of {@code resamples} resamples with replacement: as counts of the distinct terms when they are
     * few, otherwise drawn as {@code new Random(seed)} would draw them, resample after resample, each index by
     * {@link Random#nextInt(int)} (see the class comment). When every value is the same and so is every weight, every
     * mean is bit for bit the mean of the values: that is returned without drawing.
     */
    public static double[] resampledMeans(double[] values, double[] weights, long seed, int resamples) {
        if (constant(values) && (weights == null || constant(weights))) {
            double[] means = new double[resamples];
            Arrays.fill(means, weightedMean(values, weights, null));
            return means;
        }
        Terms terms = Terms.of(values, unitWeights(weights) ? null : weights);
        if (terms.counts != null && (long) terms.counts.length * CASES_PER_COUNTED_TERM <= values.length) {
            return countedMeans(terms, values.length, seed, resamples);
        }
        return drawnMeans(terms, values.length, seed, resamples);
    }

    /** Resampled means drawn case by case, bit for bit as {@code new Random(seed).nextInt(n)} draws. */
    static double[] drawnMeans(Terms terms, int n, long seed, int resamples) {
        Draws draws = new Draws(seed, n);
        double[] means = new double[resamples];
        for (int b = 0; b < resamples; b++) {
            means[b] = draws.resampledMean(terms);
        }
        return means;
    }

    /**
     * Resampled means from how many times each distinct term is drawn: a multinomial of n trials over the terms'
     * shares of the cases, drawn term by term as a binomial of what is left.
     */
    static double[] countedMeans(Terms terms, int n, long seed, int resamples) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] counts = terms.counts;
        int last = counts.length - 1;
        double[] means = new double[resamples];
        for (int b = 0; b < resamples; b++) {
            int left = n;
            int share = n;
            double sum = 0;
            double total = 0;
            for (int c = 0; c < last && left > 0; c++) {
                int drawn = Binomial.draw(random, left, counts[c] / (double) share);
                sum += drawn * terms.products[c];
                total += drawn * terms.weights[c];
                left -= drawn;
                share -= counts[c];
            }
            if (left > 0) {
                sum += left * terms.products[last];
                total += left * terms.weights[last];
            }
            means[b] = total == 0 ? Double.NaN : sum / total;
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

    /**
     * What a drawn index adds: its weighted value {@code w × v} to the sum and its weight {@code w} to the total (1
     * without weights), the same doubles as computed draw by draw.
     *
     * <p>A run's scores and costs take few distinct values, while a bootstrap reads them at random positions 20
     * million times per 10,000 cases: a table of the distinct terms and a byte (or char) per case keeps those reads
     * in the processor's cache where an array of doubles for 100,000 cases does not fit.
     */
    static final class Terms {

        final double[] products;
        final double[] weights;
        final byte[] smallCodes;
        final char[] codes;
        /** How many cases have each term of the table; null without a table. */
        final int[] counts;

        private Terms(double[] products, double[] weights, byte[] smallCodes, char[] codes, int[] counts) {
            this.products = products;
            this.weights = weights;
            this.smallCodes = smallCodes;
            this.codes = codes;
            this.counts = counts;
        }

        static Terms of(double[] values, double[] weights) {
            int n = values.length;
            double[] products = new double[n];
            double[] termWeights = new double[n];
            for (int i = 0; i < n; i++) {
                double w = weights == null ? 1 : weights[i];
                products[i] = w * values[i];
                termWeights[i] = w;
            }
            // codes in order of first appearance; a few distinct terms (scores, usually) are found in a short table,
            // more in a map keyed by their bits
            int[] codeOf = new int[n];
            long[] tableBits = distinctFew(products, termWeights, codeOf);
            if (tableBits == null) {
                tableBits = distinctMany(products, termWeights, codeOf);
            }
            if (tableBits == null) {
                return new Terms(products, termWeights, null, null, null);
            }
            int size = tableBits.length / 2;
            double[] tableProducts = new double[size];
            double[] tableWeights = new double[size];
            for (int code = 0; code < size; code++) {
                tableProducts[code] = Double.longBitsToDouble(tableBits[2 * code]);
                tableWeights[code] = Double.longBitsToDouble(tableBits[2 * code + 1]);
            }
            int[] counts = new int[size];
            for (int i = 0; i < n; i++) {
                counts[codeOf[i]]++;
            }
            if (size <= 256) {
                byte[] small = new byte[n];
                for (int i = 0; i < n; i++) {
                    small[i] = (byte) codeOf[i];
                }
                return new Terms(tableProducts, tableWeights, small, null, counts);
            }
            char[] wide = new char[n];
            for (int i = 0; i < n; i++) {
                wide[i] = (char) codeOf[i];
            }
            return new Terms(tableProducts, tableWeights, null, wide, counts);
        }

        /** At most this many distinct terms are looked up in a short table rather than a map. */
        private static final int FEW = 16;

        /**
         * The bits of each distinct (product, weight) pair in order of first appearance, and each position's code in
         * {@code codeOf}; {@code null} when there are more than {@link #FEW}.
         */
        static long[] distinctFew(double[] products, double[] weights, int[] codeOf) {
            long[] table = new long[2 * FEW];
            int size = 0;
            for (int i = 0; i < products.length; i++) {
                long product = Double.doubleToRawLongBits(products[i]);
                long weight = Double.doubleToRawLongBits(weights[i]);
                int code = 0;
                while (code < size && (table[2 * code] != product || table[2 * code + 1] != weight)) {
                    code++;
                }
                if (code == size) {
                    if (size == FEW) {
                        return null;
                    }
                    table[2 * size] = product;
                    table[2 * size + 1] = weight;
                    size++;
                }
                codeOf[i] = code;
            }
            return Arrays.copyOf(table, 2 * size);
        }

        /**
         * As {@link #distinctFew} for any number of distinct terms up to a {@code char}'s range; {@code null} beyond
         * it.
         */
        static long[] distinctMany(double[] products, double[] weights, int[] codeOf) {
            Map<List<Long>, Integer> distinct = new HashMap<>();
            int n = products.length;
            for (int i = 0; i < n && distinct.size() <= Character.MAX_VALUE + 1; i++) {
                List<Long> key = List.of(Double.doubleToRawLongBits(products[i]),
                        Double.doubleToRawLongBits(weights[i]));
                Integer code = distinct.putIfAbsent(key, distinct.size());
                codeOf[i] = code == null ? distinct.size() - 1 : code;
            }
            if (distinct.size() > Character.MAX_VALUE + 1) {
                return null;
            }
            long[] table = new long[2 * distinct.size()];
            distinct.forEach((key, code) -> {
                table[2 * code] = key.get(0);
                table[2 * code + 1] = key.get(1);
            });
            return table;
        }

        /** The table index of the term at position {@code i}. */
        int code(int i) {
            return smallCodes != null ? smallCodes[i] & 0xff : codes != null ? codes[i] : i;
        }
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
         * The weighted mean of one resample of {@code bound} terms: the indices drawn one by one, each term added as
         * it is drawn. A method of its own, called once per resample, so that it is compiled early in a run that
         * calls it only for the leaderboard at its end; the generator written out, with its state in a local.
         */
        double resampledMean(Terms terms) {
            if (powerOfTwo || terms.smallCodes == null) {
                return meanOfDraws(terms);
            }
            byte[] codes = terms.smallCodes;
            double[] products = terms.products;
            double[] weights = terms.weights;
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
                int c = codes[r] & 0xff;
                sum += products[c];
                total += weights[c];
            }
            state = s;
            return total == 0 ? Double.NaN : sum / total;
        }

        private double meanOfDraws(Terms terms) {
            double sum = 0;
            double total = 0;
            for (int j = 0; j < bound; j++) {
                int c = terms.code(next());
                sum += terms.products[c];
                total += terms.weights[c];
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
