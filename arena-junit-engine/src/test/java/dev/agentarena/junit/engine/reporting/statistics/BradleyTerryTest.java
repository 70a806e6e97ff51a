package dev.agentarena.junit.engine.reporting.statistics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Bradley-Terry ratings against a hand-computed example, an independent implementation's figures (SciPy, see
 * {@code bradley_terry_fixtures.py} next to {@code bradley-terry-fixtures.json}), and the properties a rating must
 * have: symmetry, a dominant model first, known strengths recovered, intervals around the estimate, a seed's
 * repeatability.
 */
class BradleyTerryTest {

    @Test
    void twoModelsThreeWinsToOneAreLnThreeApartCentredOnAThousand() {
        // by hand: P(A beats B) = 3/4 at the maximum, so θA - θB = ln 3, ratings 1000 ± 200·log10(3)
        BradleyTerry.Data data = new BradleyTerry.Data(2).add(0, 1, 0, 1.0, 3).add(0, 1, 0, 0.0, 1);

        BradleyTerry.Fit fit = BradleyTerry.fit(data, false, 0);

        assertThat(fit.theta()[0] - fit.theta()[1]).isCloseTo(Math.log(3), within(1e-9));
        assertThat(fit.ratings()[0]).isCloseTo(1000 + 200 * Math.log10(3), within(1e-6));
        assertThat(fit.ratings()[1]).isCloseTo(1000 - 200 * Math.log10(3), within(1e-6));
        assertThat(fit.ratings()[0]).isCloseTo(1095.424, within(1e-3));
    }

    @Test
    void aTieIsHalfAWinEachWay() {
        BradleyTerry.Fit ties = BradleyTerry.fit(new BradleyTerry.Data(2).add(0, 1, 0, 1.0, 2).add(0, 1, 0, 0.5, 2),
                false, 0);
        BradleyTerry.Fit halves = BradleyTerry.fit(new BradleyTerry.Data(2).add(0, 1, 0, 1.0, 3)
                .add(0, 1, 0, 0.0, 1), false, 0);

        assertThat(ties.theta()[0]).isCloseTo(halves.theta()[0], within(1e-9));
    }

    @ParameterizedTest
    @ValueSource(strings = {"three-models-with-ties", "four-models-quarter-shares-with-prior",
            "three-models-length-covariate"})
    void equalsSciPysMaximumLikelihoodFit(String name) throws IOException {
        JsonNode fixture = fixtures().get(name);
        BradleyTerry.Data data = new BradleyTerry.Data(fixture.get("models").asInt());
        for (JsonNode cell : fixture.get("cells")) {
            data.add(cell.get(0).asInt(), cell.get(1).asInt(), cell.get(2).asDouble(), cell.get(3).asDouble(),
                    cell.get(4).asDouble());
        }
        boolean covariate = fixture.get("covariate").asBoolean();

        BradleyTerry.Fit fit = BradleyTerry.fit(data, covariate, fixture.get("prior").asDouble());

        JsonNode expected = fixture.get("expected");
        for (int i = 0; i < data.models(); i++) {
            assertThat(fit.theta()[i]).as("θ of model %d", i).isCloseTo(expected.get("theta").get(i).asDouble(),
                    within(1e-5));
            assertThat(fit.ratings()[i]).as("rating of model %d", i)
                    .isCloseTo(expected.get("ratings").get(i).asDouble(), within(1e-3));
        }
        if (covariate) {
            assertThat(fit.gamma()).isCloseTo(expected.get("gamma").asDouble(), within(1e-5));
        }
        else {
            assertThat(fit.gamma()).isNaN();
        }
    }

    @Test
    void swappingTheModelsMirrorsTheRatings() {
        BradleyTerry.Data forward = new BradleyTerry.Data(3).add(0, 1, 0, 1.0, 5).add(1, 0, 0, 1.0, 2)
                .add(1, 2, 0, 0.5, 4).add(2, 0, 0, 1.0, 1).add(0, 2, 0, 1.0, 3);
        // the same comparisons, said from the other side
        BradleyTerry.Data backward = new BradleyTerry.Data(3).add(1, 0, 0, 0.0, 5).add(0, 1, 0, 0.0, 2)
                .add(2, 1, 0, 0.5, 4).add(0, 2, 0, 0.0, 1).add(2, 0, 0, 0.0, 3);

        assertThat(BradleyTerry.fit(backward, false, 1).theta())
                .containsExactly(BradleyTerry.fit(forward, false, 1).theta(), within(1e-9));
        BradleyTerry.Fit even = BradleyTerry.fit(new BradleyTerry.Data(2).add(0, 1, 0, 1.0, 4).add(0, 1, 0, 0.0, 4),
                false, 0);
        assertThat(even.ratings()).containsExactly(new double[] {1000, 1000}, within(1e-9));
    }

    @Test
    void aModelThatWinsEverythingRanksFirstWithAFiniteRating() {
        BradleyTerry.Data data = new BradleyTerry.Data(3).add(2, 0, 0, 1.0, 10).add(2, 1, 0, 1.0, 10)
                .add(0, 1, 0, 1.0, 6).add(0, 1, 0, 0.0, 4);

        double[] ratings = BradleyTerry.fit(data, false, 1).ratings();

        assertThat(ratings[2]).isFinite().isGreaterThan(ratings[0]).isGreaterThan(ratings[1]);
        assertThat(ratings[0]).isGreaterThan(ratings[1]);
    }

    @Test
    void aSyntheticTournamentRecoversTheKnownStrengthsOrder() {
        double[] strengths = {-1.2, -0.4, 0.1, 0.6, 1.3};
        Random random = new Random(2026);
        BradleyTerry.Data data = new BradleyTerry.Data(strengths.length);
        for (int i = 0; i < strengths.length; i++) {
            for (int j = i + 1; j < strengths.length; j++) {
                double p = 1 / (1 + Math.exp(-(strengths[i] - strengths[j])));
                for (int game = 0; game < 300; game++) {
                    data.add(i, j, 0, random.nextDouble() < p ? 1.0 : 0.0, 1);
                }
            }
        }

        BradleyTerry.Fit fit = BradleyTerry.fit(data, false, 1);

        for (int i = 1; i < strengths.length; i++) {
            assertThat(fit.theta()[i]).as("model %d above model %d", i, i - 1).isGreaterThan(fit.theta()[i - 1]);
        }
        double mean = java.util.Arrays.stream(strengths).average().orElseThrow();
        for (int i = 0; i < strengths.length; i++) {
            assertThat(fit.theta()[i]).as("θ of model %d", i).isCloseTo(strengths[i] - mean, within(0.2));
        }
    }

    @Test
    void theIntervalsHoldTheEstimateAndASeedRepeatsThem() {
        BradleyTerry.Data data = new BradleyTerry.Data(3).add(0, 1, 0.2, 1.0, 12).add(0, 1, -0.3, 0.0, 7)
                .add(1, 2, 0.0, 0.5, 5).add(1, 2, 0.4, 1.0, 9).add(0, 2, -0.1, 0.75, 6).add(0, 2, 0.1, 0.25, 3);

        BradleyTerry.Rated rated = BradleyTerry.bootstrap(data, true, 1, 42, 500);

        double[] ratings = rated.fit().ratings();
        for (int i = 0; i < 3; i++) {
            assertThat(rated.low()[i]).isLessThan(ratings[i]);
            assertThat(rated.high()[i]).isGreaterThan(ratings[i]);
        }
        assertThat(rated.gammaLow()).isLessThan(rated.fit().gamma());
        assertThat(rated.gammaHigh()).isGreaterThan(rated.fit().gamma());
        BradleyTerry.Rated again = BradleyTerry.bootstrap(data, true, 1, 42, 500);
        assertThat(again.low()).containsExactly(rated.low());
        assertThat(again.high()).containsExactly(rated.high());
        assertThat(BradleyTerry.bootstrap(data, true, 1, 43, 500).low()).isNotEqualTo(rated.low());
    }

    @Test
    void binomialDrawsHaveTheirMean() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(1);
        for (long n : new long[] {10, 100, 10_000}) {
            for (double p : new double[] {0.01, 0.3, 0.9}) {
                double sum = 0;
                for (int t = 0; t < 4000; t++) {
                    long k = BradleyTerry.binomial(random, n, p);
                    assertThat(k).isBetween(0L, n);
                    sum += k;
                }
                double sd = Math.sqrt(n * p * (1 - p) / 4000);
                assertThat(sum / 4000).as("n=%d p=%s", n, p).isCloseTo(n * p, within(5 * sd + 1e-9));
            }
        }
    }

    private static JsonNode fixtures() throws IOException {
        try (InputStream in = BradleyTerryTest.class.getResourceAsStream("bradley-terry-fixtures.json")) {
            return new ObjectMapper().readTree(in);
        }
    }
}
