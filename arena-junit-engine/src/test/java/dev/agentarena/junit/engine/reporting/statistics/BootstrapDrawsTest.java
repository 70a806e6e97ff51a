package dev.agentarena.junit.engine.reporting.statistics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The bootstrap's own generator draws what {@link Random} draws, so every interval drawn case by case stays what it
 * was.
 */
class BootstrapDrawsTest {

    @Test
    void drawsTheSequenceOfRandomNextIntForEveryKindOfBound() {
        int[] bounds = {1, 2, 3, 7, 64, 1000, 10_000, 65_536, 100_000, (1 << 30) + 1, Integer.MAX_VALUE};
        long[] seeds = {0, 42, -1, Long.MIN_VALUE, Bootstrap.seed(42, "accuracy|e|m")};
        for (int bound : bounds) {
            for (long seed : seeds) {
                Random random = new Random(seed);
                Bootstrap.Draws draws = new Bootstrap.Draws(seed, bound);
                for (int i = 0; i < 20_000; i++) {
                    assertThat(draws.next()).as("draw %d of bound %d, seed %d", i, bound, seed)
                            .isEqualTo(random.nextInt(bound));
                }
            }
        }
    }

    @Test
    void theRemainderByMultiplicationIsTheRemainderForEveryDividendAndBound() {
        SplittableRandom random = new SplittableRandom(9);
        int[] bounds = {1, 2, 3, 5, 7, 10, 641, 1000, 9999, 10_000, 65_535, 65_537, 100_000, 1_000_003, (1 << 30) - 1,
            (1 << 30) + 1, Integer.MAX_VALUE - 1, Integer.MAX_VALUE};
        for (int round = 0; round < 2000; round++) {
            int bound = round < bounds.length ? bounds[round] : random.nextInt(1, Integer.MAX_VALUE);
            Bootstrap.Draws draws = new Bootstrap.Draws(0, bound);
            int[] edges = {0, 1, bound - 1, bound, Integer.MAX_VALUE, Integer.MAX_VALUE - 1,
                Integer.MAX_VALUE - Integer.MAX_VALUE % bound, Integer.MAX_VALUE - Integer.MAX_VALUE % bound - 1};
            for (int u : edges) {
                if (u >= 0) {
                    assertThat(draws.remainder(u)).as("%d %% %d", u, bound).isEqualTo(u % bound);
                }
            }
            for (int i = 0; i < 500; i++) {
                int u = random.nextInt(Integer.MAX_VALUE);
                assertThat(draws.remainder(u)).as("%d %% %d", u, bound).isEqualTo(u % bound);
            }
        }
    }

    @Test
    void resampledMeansAreBitForBitThoseOfRandom() {
        SplittableRandom data = new SplittableRandom(3);
        int[] sizes = {1, 2, 3, 64, 100, 128, 1000, 1024};
        for (int round = 0; round < 30 + sizes.length; round++) {
            // every size of a power of two draws differently from the others (Random takes the high bits)
            int n = round < sizes.length ? sizes[round] : data.nextInt(1, 400);
            double[] values = new double[n];
            double[] weights = new double[n];
            for (int i = 0; i < n; i++) {
                values[i] = data.nextInt(4) / 3.0 + (round % 2 == 0 ? 0 : data.nextDouble());
                weights[i] = round % 3 == 0 ? 1 : data.nextDouble() * 3;
            }
            long seed = data.nextLong();
            for (double[] w : new double[][] {null, weights}) {
                double[] expected = referenceMeans(values, w, new Random(seed), 300);
                double[] actual = drawnMeans(values, w, seed, 300);
                for (int b = 0; b < expected.length; b++) {
                    assertThat(Double.doubleToRawLongBits(actual[b])).as("resample %d of round %d", b, round)
                            .isEqualTo(Double.doubleToRawLongBits(expected[b]));
                }
            }
        }
    }

    @Test
    void everyWayOfStoringTheTermsGivesTheMeansOfRandom() {
        SplittableRandom data = new SplittableRandom(17);
        // a byte per case (few distinct terms), a char (more than 256), the doubles themselves (more than 65,536)
        for (int distinct : new int[] {4, 3000, 70_000}) {
            int n = Math.max(distinct, 5000);
            double[] values = new double[n];
            double[] weights = new double[n];
            for (int i = 0; i < n; i++) {
                values[i] = (i % distinct) / 7.0;
                weights[i] = 0.5 + (i % 3);
            }
            long seed = data.nextLong();
            for (double[] w : new double[][] {null, weights}) {
                double[] expected = referenceMeans(values, w, new Random(seed), 12);
                double[] actual = drawnMeans(values, w, seed, 12);
                for (int b = 0; b < expected.length; b++) {
                    assertThat(Double.doubleToRawLongBits(actual[b])).as("resample %d, %d distinct", b, distinct)
                            .isEqualTo(Double.doubleToRawLongBits(expected[b]));
                }
            }
        }
    }

    @Test
    void manyDistinctTermsAreDrawnCaseByCaseAsRandomDraws() {
        SplittableRandom data = new SplittableRandom(5);
        int n = 3000;
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = data.nextDouble();
        }
        long seed = data.nextLong();
        double[] expected = referenceMeans(values, null, new Random(seed), 20);
        double[] actual = Bootstrap.resampledMeans(values, null, seed, 20);
        for (int b = 0; b < expected.length; b++) {
            assertThat(Double.doubleToRawLongBits(actual[b])).as("resample %d", b)
                    .isEqualTo(Double.doubleToRawLongBits(expected[b]));
        }
    }

    private static double[] drawnMeans(double[] values, double[] weights, long seed, int resamples) {
        boolean unit = weights == null || Arrays.stream(weights).allMatch(w -> w == 1.0);
        return Bootstrap.drawnMeans(Bootstrap.Terms.of(values, unit ? null : weights), values.length, seed,
                resamples);
    }

    /** The bootstrap as it was written over {@link Random}. */
    private static double[] referenceMeans(double[] values, double[] weights, Random random, int resamples) {
        int n = values.length;
        int[] picks = new int[n];
        double[] means = new double[resamples];
        for (int b = 0; b < resamples; b++) {
            for (int i = 0; i < n; i++) {
                picks[i] = random.nextInt(n);
            }
            means[b] = Bootstrap.weightedMean(values, weights, picks);
        }
        return means;
    }
}
