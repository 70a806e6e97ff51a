package dev.agentarena.junit.engine.reporting.statistics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * A resample drawn as counts of its distinct terms is a resample of the cases: the binomial draws have the binomial
 * distribution, and the resampled means have the distribution of means drawn case by case.
 */
class CountedBootstrapTest {

    @Test
    void binomialDrawsFollowTheBinomialDistributionOnEveryPath() {
        // small mean (from 0), p above one half (drawn as failures), large means (from the mode), the edges
        int[][] trials = {{10, 3}, {50, 9}, {1000, 2}, {2000, 25}, {10_000, 50}, {100_000, 70}, {1_000_000, 50},
            {7, 100}, {5, 0}, {1, 50}};
        SplittableRandom random = new SplittableRandom(11);
        for (int[] t : trials) {
            int n = t[0];
            double p = t[1] / (t[0] == 1000 ? 1000.0 : 100.0);
            int draws = 100_000;
            double sum = 0;
            double squares = 0;
            long[] observed = new long[n + 1];
            for (int i = 0; i < draws; i++) {
                int x = Binomial.draw(random, n, p);
                assertThat(x).as("a draw of Binomial(%d, %s)", n, p).isBetween(0, n);
                observed[x]++;
                sum += x;
                squares += (double) x * x;
            }
            double mean = sum / draws;
            double variance = squares / draws - mean * mean;
            double sd = Math.sqrt(n * p * (1 - p));
            assertThat(mean).as("mean of Binomial(%d, %s)", n, p).isCloseTo(n * p, within(6 * sd / Math.sqrt(draws)
                    + 1e-12));
            if (sd > 0) {
                assertThat(variance / (sd * sd)).as("variance of Binomial(%d, %s) over n p q", n, p)
                        .isCloseTo(1.0, within(0.05));
                assertThat(chiSquareExceedsLimit(observed, draws, n, p)).as("chi-square of Binomial(%d, %s)", n, p)
                        .isFalse();
            }
        }
    }

    @Test
    void stirlingsSeriesAgreesWithTheSumOfLogarithms() {
        double sum = Binomial.logFactorial(255);
        for (int k = 256; k <= 20_000; k++) {
            sum += Math.log(k);
            assertThat(Binomial.logFactorial(k)).as("ln %d!", k).isCloseTo(sum, within(sum * 1e-13));
        }
    }

    @Test
    void countedMeansHaveTheDistributionOfMeansDrawnCaseByCase() {
        SplittableRandom data = new SplittableRandom(23);
        int n = 5000;
        double[] values = new double[n];
        double[] weights = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = data.nextInt(4) / 3.0;
            weights[i] = data.nextInt(3) + 0.5;
        }
        int resamples = 5000;
        for (double[] w : new double[][] {null, weights}) {
            Bootstrap.Terms terms = Bootstrap.Terms.of(values, w);
            double[] counted = Bootstrap.countedMeans(terms, n, 7, resamples);
            double[] drawn = Bootstrap.drawnMeans(terms, n, 8, resamples);
            Arrays.sort(counted);
            Arrays.sort(drawn);
            // two-sample Kolmogorov-Smirnov at a level of 1e-6: c = sqrt(-ln(0.5e-6) / 2)
            double limit = Math.sqrt(-Math.log(0.5e-6) / 2) * Math.sqrt(2.0 / resamples);
            assertThat(ksDistance(counted, drawn)).as("KS distance, weights %s", w == null ? "none" : "varied")
                    .isLessThan(limit);
            double point = Bootstrap.weightedMean(values, w, null);
            assertThat(Quantiles.of(counted, 0.5)).isCloseTo(point, within(0.005));
        }
    }

    @Test
    void fewDistinctTermsAreResampledAsCountsSeededAndRepeatable() {
        SplittableRandom data = new SplittableRandom(31);
        int n = 10_000;
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = data.nextInt(4) / 3.0;
        }
        double[] first = Bootstrap.resampledMeans(values, null, 42, 300);
        assertThat(first).containsExactly(Bootstrap.countedMeans(Bootstrap.Terms.of(values, null), n, 42, 300));
        assertThat(Bootstrap.resampledMeans(values, null, 42, 300)).containsExactly(first);
        assertThat(Bootstrap.resampledMeans(values, null, 43, 300)).isNotEqualTo(first);
        // every mean is a mean of the values: between the smallest and the largest
        assertThat(Arrays.stream(first).min().orElseThrow()).isGreaterThan(0.0);
        assertThat(Arrays.stream(first).max().orElseThrow()).isLessThan(1.0);
    }

    private static double ksDistance(double[] a, double[] b) {
        int i = 0;
        int j = 0;
        double distance = 0;
        while (i < a.length && j < b.length) {
            double x = Math.min(a[i], b[j]);
            while (i < a.length && a[i] <= x) {
                i++;
            }
            while (j < b.length && b[j] <= x) {
                j++;
            }
            distance = Math.max(distance, Math.abs((double) i / a.length - (double) j / b.length));
        }
        return distance;
    }

    /** Pearson's chi-square over outcomes pooled until each expects at least 20, against mean + 6 sd of its law. */
    private static boolean chiSquareExceedsLimit(long[] observed, int draws, int n, double p) {
        double chi = 0;
        int cells = 0;
        double expectedCell = 0;
        long observedCell = 0;
        double logP = Math.log(p);
        double logQ = Math.log1p(-p);
        for (int k = 0; k <= n; k++) {
            double pmf = Math.exp(Binomial.logFactorial(n) - Binomial.logFactorial(k) - Binomial.logFactorial(n - k)
                    + k * logP + (n - k) * logQ);
            expectedCell += draws * pmf;
            observedCell += observed[k];
            if (expectedCell >= 20 || k == n) {
                chi += (observedCell - expectedCell) * (observedCell - expectedCell) / Math.max(expectedCell, 1e-9);
                cells++;
                expectedCell = 0;
                observedCell = 0;
            }
        }
        int freedom = Math.max(1, cells - 1);
        return chi > freedom + 6 * Math.sqrt(2.0 * freedom);
    }

    @Test
    void fewDistinctTermsGetTheCodesAndTableOfTheMap() {
        SplittableRandom random = new SplittableRandom(41);
        double[] products = new double[1_000];
        double[] weights = new double[1_000];
        for (int i = 0; i < products.length; i++) {
            products[i] = random.nextInt(6) / 4.0;
            weights[i] = i % 3 == 0 ? 2.0 : 1.0;
        }
        products[7] = -0.0;
        int[] fewCodes = new int[products.length];
        int[] mapCodes = new int[products.length];

        long[] few = Bootstrap.Terms.distinctFew(products, weights, fewCodes);
        long[] map = Bootstrap.Terms.distinctMany(products, weights, mapCodes);

        assertThat(few).isNotNull().containsExactly(map);
        assertThat(fewCodes).containsExactly(mapCodes);
    }

    @Test
    void moreThanSixteenDistinctTermsAreLeftToTheMap() {
        double[] products = new double[17];
        double[] weights = new double[17];
        for (int i = 0; i < products.length; i++) {
            products[i] = i;
            weights[i] = 1;
        }

        assertThat(Bootstrap.Terms.distinctFew(products, weights, new int[17])).isNull();
        assertThat(Bootstrap.Terms.distinctMany(products, weights, new int[17])).hasSize(34);
    }
}
