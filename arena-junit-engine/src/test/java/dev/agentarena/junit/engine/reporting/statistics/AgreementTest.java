package dev.agentarena.junit.engine.reporting.statistics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Cohen's kappa, Spearman's rho and their bootstrap against hand-computed textbook values and against figures of an
 * independent implementation: {@code agreement/agreement-fixtures.json}, computed once by scikit-learn and SciPy
 * with {@code agreement/make-fixtures.py}, and their 95% intervals against SciPy's bootstrap
 * ({@code agreement/interval-fixtures.json}).
 */
class AgreementTest {

    @Test
    void kappaOfWikipediasFiftyProposalsIsPointFour() {
        // A and B agree on 20 yes and 15 no; A says yes and B no 5 times, the other way 10 times:
        // po = 35/50 = 0.7, pe = 0.5 * 0.6 + 0.5 * 0.4 = 0.5, kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4
        assertThat(Agreement.kappa(new long[][] {{20, 5}, {10, 15}})).isCloseTo(0.4, within(1e-12));
    }

    @Test
    void kappaIsOneForPerfectAgreementAndUndefinedWhenBothAlwaysSayTheSame() {
        assertThat(Agreement.kappa(new long[][] {{3, 0}, {0, 5}})).isEqualTo(1.0);
        assertThat(Agreement.kappa(new long[][] {{8, 0}, {0, 0}})).isNaN();
        assertThat(Agreement.kappa(new long[][] {{0, 0}, {0, 0}})).isNaN();
        // one rater constant, the other not: chance agreement explains everything, kappa 0
        assertThat(Agreement.kappa(new long[][] {{4, 4}, {0, 0}})).isEqualTo(0.0);
    }

    @Test
    void kappaAndRhoEqualScikitLearnsAndScipysOnTheCommittedFixtures() throws IOException {
        JsonNode fixtures;
        try (InputStream in = getClass().getResourceAsStream("/agreement/agreement-fixtures.json")) {
            fixtures = new ObjectMapper().readTree(in);
        }
        assertThat(fixtures.get("kappa")).hasSizeGreaterThanOrEqualTo(3);
        for (JsonNode fixture : fixtures.get("kappa")) {
            int[] first = ints(fixture.get("first"));
            int[] second = ints(fixture.get("second"));
            long[][] counts = new long[3][3];
            for (int i = 0; i < first.length; i++) {
                counts[first[i]][second[i]]++;
            }
            assertThat(Agreement.kappa(counts)).as(fixture.get("name").asText())
                    .isCloseTo(fixture.get("kappa").asDouble(), within(1e-12));
            if (max(first) <= 1 && max(second) <= 1) {
                assertThat(Agreement.kappa(booleans(first), booleans(second))).as(fixture.get("name").asText())
                        .isCloseTo(fixture.get("kappa").asDouble(), within(1e-12));
            }
        }
        assertThat(fixtures.get("spearman")).hasSizeGreaterThanOrEqualTo(3);
        for (JsonNode fixture : fixtures.get("spearman")) {
            assertThat(Agreement.spearman(doubles(fixture.get("first")), doubles(fixture.get("second"))))
                    .as(fixture.get("name").asText()).isCloseTo(fixture.get("rho").asDouble(), within(1e-12));
        }
    }

    @Test
    void tiedValuesShareTheMeanOfTheirRanks() {
        assertThat(Agreement.ranks(new double[] {0.5, 0.1, 0.5, 0.9, 0.5})).containsExactly(3, 1, 3, 5, 3);
    }

    @Test
    void spearmanWithTiesByHand() {
        // x ranks 1, 2.5, 2.5, 4 and y ranks 1, 3, 2, 4: deviations (-1.5, 0, 0, 1.5) and (-1.5, 0.5, -0.5, 1.5),
        // so rho = 4.5 / sqrt(4.5 * 5) = 0.948683...
        assertThat(Agreement.spearman(new double[] {1, 2, 2, 3}, new double[] {1, 3, 2, 4}))
                .isCloseTo(4.5 / Math.sqrt(22.5), within(1e-12));
        assertThat(Agreement.spearman(new double[] {1, 1, 1}, new double[] {1, 2, 3})).as("a constant side").isNaN();
        assertThat(Agreement.spearman(new double[] {1}, new double[] {1})).as("one pair").isNaN();
    }

    @Test
    void percentAgreementAndMeanAbsoluteError() {
        assertThat(Agreement.percentAgreement(new boolean[] {true, true, false, false},
                new boolean[] {true, false, false, true})).isEqualTo(0.5);
        assertThat(Agreement.meanAbsoluteError(new double[] {1, 0.5, 0}, new double[] {0.5, 0.5, 0.25}))
                .isCloseTo(0.25, within(1e-12));
    }

    @Test
    void theBootstrapIntervalIsSeededAndHoldsThePointEstimate() {
        boolean[] person = {true, true, true, false, false, true, false, true, true, false, false, true};
        boolean[] judge = {true, true, false, false, false, true, true, true, true, false, true, true};
        Estimate first = Agreement.bootstrap(person.length,
                picks -> Agreement.kappa(Agreement.pick(person, picks), Agreement.pick(judge, picks)), 42, "k", 2000);
        Estimate again = Agreement.bootstrap(person.length,
                picks -> Agreement.kappa(Agreement.pick(person, picks), Agreement.pick(judge, picks)), 42, "k", 2000);
        Estimate otherSeed = Agreement.bootstrap(person.length,
                picks -> Agreement.kappa(Agreement.pick(person, picks), Agreement.pick(judge, picks)), 7, "k", 2000);

        assertThat(first.value()).isCloseTo(0.47058823529411764, within(1e-12));
        assertThat(again).isEqualTo(first);
        assertThat(otherSeed.low()).isNotEqualTo(first.low());
        assertThat(first.low()).isLessThan(first.value()).isGreaterThanOrEqualTo(-1);
        assertThat(first.high()).isGreaterThan(first.value()).isLessThanOrEqualTo(1);
        assertThat(first.n()).isEqualTo(12);
    }

    /**
     * The 95% intervals against SciPy's percentile bootstrap ({@code scipy.stats.bootstrap}, paired, 100,000
     * resamples; {@code agreement/interval-fixtures.json}, made by {@code agreement/make-interval-fixtures.py}). Two
     * bootstraps with different random streams agree only up to their Monte Carlo error, and a kappa of 40-60 verdicts
     * takes discrete values some 0.03 apart, so the bounds must agree within 0.035: an interval of the wrong width
     * (another confidence level, an unpaired resample, a bias in the draws) misses by far more.
     */
    @Test
    void intervalsEqualSciPysBootstrapOnTheCommittedFixtures() throws IOException {
        JsonNode fixtures;
        try (InputStream in = getClass().getResourceAsStream("/agreement/interval-fixtures.json")) {
            fixtures = new ObjectMapper().readTree(in);
        }
        assertThat(fixtures.get("kappa")).hasSizeGreaterThanOrEqualTo(3);
        for (JsonNode fixture : fixtures.get("kappa")) {
            boolean[] first = booleans(ints(fixture.get("first")));
            boolean[] second = booleans(ints(fixture.get("second")));
            Estimate estimate = Agreement.bootstrap(first.length,
                    picks -> Agreement.kappa(Agreement.pick(first, picks), Agreement.pick(second, picks)), 1, "kappa",
                    100_000);
            assertInterval(fixture, estimate, fixture.get("kappa").asDouble());
        }
        assertThat(fixtures.get("spearman")).hasSizeGreaterThanOrEqualTo(3);
        for (JsonNode fixture : fixtures.get("spearman")) {
            double[] first = doubles(fixture.get("first"));
            double[] second = doubles(fixture.get("second"));
            Estimate estimate = Agreement.bootstrap(first.length,
                    picks -> Agreement.spearman(Agreement.pick(first, picks), Agreement.pick(second, picks)), 1, "rho",
                    100_000);
            assertInterval(fixture, estimate, fixture.get("rho").asDouble());
        }
    }

    private static void assertInterval(JsonNode fixture, Estimate estimate, double value) {
        String name = fixture.get("name").asText();
        assertThat(estimate.value()).as(name).isCloseTo(value, within(1e-12));
        assertThat(estimate.low()).as(name + ": low").isCloseTo(fixture.get("low").asDouble(), within(0.035));
        assertThat(estimate.high()).as(name + ": high").isCloseTo(fixture.get("high").asDouble(), within(0.035));
    }

    @Test
    void anUndefinedStatisticHasNoInterval() {
        boolean[] same = {true, true, true};
        Estimate estimate = Agreement.bootstrap(3,
                picks -> Agreement.kappa(Agreement.pick(same, picks), Agreement.pick(same, picks)), 1, "k", 100);
        assertThat(estimate.value()).isNaN();
        assertThat(estimate.low()).isNaN();
        assertThat(Agreement.bootstrap(0, picks -> 1.0, 1, "k", 100).present()).isFalse();
    }

    private static int[] ints(JsonNode array) {
        int[] values = new int[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).asInt();
        }
        return values;
    }

    private static double[] doubles(JsonNode array) {
        double[] values = new double[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).asDouble();
        }
        return values;
    }

    private static boolean[] booleans(int[] values) {
        boolean[] verdicts = new boolean[values.length];
        for (int i = 0; i < values.length; i++) {
            verdicts[i] = values[i] == 1;
        }
        return verdicts;
    }

    private static int max(int[] values) {
        int max = 0;
        for (int value : values) {
            max = Math.max(max, value);
        }
        return max;
    }
}
