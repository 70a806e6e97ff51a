package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.reporting.statistics.Bootstrap;
import dev.agentarena.junit.engine.reporting.statistics.CaseScores;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.reporting.statistics.McNemar;
import dev.agentarena.junit.engine.reporting.statistics.PairedTest;
import dev.agentarena.junit.engine.reporting.statistics.Quantiles;
import dev.agentarena.junit.engine.reporting.statistics.Wilson;

class StatisticsTest {

    @Test
    void wilsonOfSevenInTenMatchesTheHandComputation() {
        // p = 0.7, z² = 3.8415, z²/n = 0.38415: centre = (0.7 + 0.19207) / 1.38415 = 0.64456,
        // half = 1.96 / 1.38415 · sqrt(0.021 + 0.0096037) = 1.41600 · 0.17494 = 0.24772.
        Estimate e = Wilson.interval(7, 10);
        assertThat(e.value()).isEqualTo(0.7);
        assertThat(e.low()).isCloseTo(0.3968, within(5e-4));
        assertThat(e.high()).isCloseTo(0.8922, within(5e-4));
        assertThat(e.method()).isEqualTo(Estimate.WILSON);
    }

    @Test
    void wilsonStaysInsideTheUnitIntervalAtTheEdges() {
        Estimate none = Wilson.interval(0, 10);
        assertThat(none.low()).isEqualTo(0.0);
        // z²/(n + z²) = 3.8415 / 13.8415 = 0.2775
        assertThat(none.high()).isCloseTo(0.2775, within(5e-4));
        Estimate all = Wilson.interval(10, 10);
        assertThat(all.high()).isEqualTo(1.0);
        assertThat(all.low()).isCloseTo(0.7225, within(5e-4));
        assertThat(Wilson.interval(0, 0).present()).isFalse();
    }

    @Test
    void passAtKIsTheUnbiasedEstimator() {
        // n = 5, c = 2: pass@1 = 1 − C(3,1)/C(5,1) = 1 − 3/5; pass@3 = 1 − C(3,3)/C(5,3) = 1 − 1/10.
        assertThat(RepeatReducer.passAtK(5, 2, 1)).isCloseTo(0.4, within(1e-12));
        assertThat(RepeatReducer.passAtK(5, 2, 3)).isCloseTo(0.9, within(1e-12));
        // n − c < k: some draw of k must include a pass.
        assertThat(RepeatReducer.passAtK(5, 3, 3)).isEqualTo(1.0);
        assertThat(RepeatReducer.passAtK(5, 0, 3)).isEqualTo(0.0);
    }

    @Test
    void passAtKStaysAccurateWhereBinomialsWouldOverflow() {
        // C(199,100)/C(200,100) = 100/200 exactly; C(200,100) ≈ 9e58 would lose precision as a long or overflow.
        assertThat(RepeatReducer.passAtK(200, 1, 100)).isCloseTo(0.5, within(1e-12));
        assertThat(RepeatReducer.passAtK(5000, 10, 2500)).isBetween(0.0, 1.0);
    }

    @Test
    void passHatKIsTheChanceThatAllKPass() {
        // C(2,1)/C(5,1) = 2/5; C(2,2)/C(5,2) = 1/10; C(2,3) = 0.
        assertThat(RepeatReducer.passHatK(5, 2, 1)).isCloseTo(0.4, within(1e-12));
        assertThat(RepeatReducer.passHatK(5, 2, 2)).isCloseTo(0.1, within(1e-12));
        assertThat(RepeatReducer.passHatK(5, 2, 3)).isEqualTo(0.0);
        assertThat(RepeatReducer.passHatK(5, 5, 3)).isEqualTo(1.0);
    }

    @Test
    void reducersParseAndReduce() {
        assertThat(RepeatReducer.parse("pass@3")).isEqualTo(new RepeatReducer(RepeatReducer.Kind.PASS_AT_K, 3));
        assertThat(RepeatReducer.parse(" Pass^2 ")).isEqualTo(new RepeatReducer(RepeatReducer.Kind.PASS_HAT_K, 2));
        assertThat(RepeatReducer.parse("majority").reduce(4, 2, 0.5)).isEqualTo(0.0);
        assertThat(RepeatReducer.parse("majority").reduce(5, 3, 0.6)).isEqualTo(1.0);
        assertThat(RepeatReducer.MEAN.reduce(4, 1, 0.375)).isEqualTo(0.375);
        assertThat(RepeatReducer.parse("pass@3").verdict(5, 1)).isTrue();
        assertThat(RepeatReducer.parse("pass^3").verdict(5, 4)).isFalse();
        assertThatThrownBy(() -> RepeatReducer.parse("pass@0")).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("pass@<k>");
        assertThatThrownBy(() -> RepeatReducer.parse("best")).isInstanceOf(ConfigurationException.class);
    }

    @Test
    void exactMcNemarMatchesTheBinomialTail() {
        // b = 1, c = 6: 2 · (C(7,0) + C(7,1)) / 2^7 = 2 · 8/128 = 0.125
        assertThat(McNemar.exactP(1, 6)).isCloseTo(0.125, within(1e-12));
        // b = 0, c = 10: 2 / 1024
        assertThat(McNemar.exactP(0, 10)).isCloseTo(0.001953125, within(1e-12));
        // b = 2, c = 8: 2 · (1 + 10 + 45) / 1024 = 0.109375
        assertThat(McNemar.exactP(2, 8)).isCloseTo(0.109375, within(1e-12));
        assertThat(McNemar.exactP(3, 3)).isEqualTo(1.0);
        assertThat(McNemar.exactP(0, 0)).isEqualTo(1.0);
        assertThat(McNemar.exactP(0, 3000)).isBetween(0.0, 1e-300);
        assertThat(McNemar.exactP(1500, 1500)).isEqualTo(1.0);
    }

    @Test
    void quantilesInterpolateBetweenClosestRanks() {
        double[] sorted = {100, 200, 300, 400};
        assertThat(Quantiles.of(sorted, 0.5)).isEqualTo(250.0);
        // h = 3 · 0.95 = 2.85: 300 + 0.85 · 100
        assertThat(Quantiles.of(sorted, 0.95)).isCloseTo(385.0, within(1e-9));
        assertThat(Quantiles.of(new double[0], 0.5)).isNaN();
    }

    @Test
    void bootstrapIsDeterministicForASeedAndBracketsTheMean() {
        double[] values = {0.1, 0.4, 0.35, 0.8, 0.9, 0.2, 0.55, 0.65, 0.3, 0.7};
        Estimate first = Bootstrap.mean(values, null, 42, "accuracy|e|m", 2000);
        Estimate again = Bootstrap.mean(values, null, 42, "accuracy|e|m", 2000);
        Estimate otherSeed = Bootstrap.mean(values, null, 7, "accuracy|e|m", 2000);
        assertThat(again).isEqualTo(first);
        assertThat(otherSeed.low()).isNotEqualTo(first.low());
        assertThat(first.value()).isCloseTo(0.495, within(1e-12));
        assertThat(first.low()).isLessThan(first.value());
        assertThat(first.high()).isGreaterThan(first.value());
        // Roughly mean ± 1.96 · sd / √n = 0.495 ± 0.15
        assertThat(first.low()).isBetween(0.30, 0.40);
        assertThat(first.high()).isBetween(0.59, 0.69);
    }

    @Test
    void weightedMeanLeavesWeightsWhereTheyBelong() {
        assertThat(Bootstrap.weightedMean(new double[] {1, 0, 0.5}, new double[] {2, 1, 1}, null)).isEqualTo(0.625);
    }

    @Test
    void pairedTestUsesOnlySharedCaseIds() {
        CaseScores a = new CaseScores(new String[] {"a", "b", "c", "d"}, new double[] {1, 1, 1, 1},
                new boolean[] {true, true, true, true}, new double[] {1, 1, 1, 1});
        CaseScores b = new CaseScores(new String[] {"b", "c", "d", "e"}, new double[] {0, 1, 0, 0},
                new boolean[] {false, true, false, false}, new double[] {1, 1, 1, 1});
        PairedTest test = PairedTest.compare(a, b, 42, "t", 2000);
        assertThat(test.n()).isEqualTo(3);
        assertThat(test.meanDifference()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(test.b()).isEqualTo(2);
        assertThat(test.c()).isEqualTo(0);
        // 2 · (1/2)^2 = 0.5
        assertThat(test.mcnemarP()).isCloseTo(0.5, within(1e-12));
        assertThat(test.test()).isEqualTo(PairedTest.MCNEMAR);
        assertThat(test.significant()).isFalse();
        assertThat(PairedTest.compare(a, b, 42, "t", 2000)).isEqualTo(test);
    }

    @Test
    void pairedBootstrapDecidesForGradedScores() {
        int n = 40;
        String[] ids = new String[n];
        double[] high = new double[n];
        double[] low = new double[n];
        boolean[] verdicts = new boolean[n];
        double[] weights = new double[n];
        for (int i = 0; i < n; i++) {
            ids[i] = String.format("c%02d", i);
            high[i] = 0.8 + (i % 3) * 0.05;
            low[i] = 0.5 + (i % 4) * 0.05;
            verdicts[i] = true;
            weights[i] = 1;
        }
        PairedTest test = PairedTest.compare(new CaseScores(ids, low, verdicts, weights),
                new CaseScores(ids, high, verdicts, weights), 42, "graded", 2000);
        assertThat(test.test()).isEqualTo(PairedTest.BOOTSTRAP);
        assertThat(test.meanDifference()).isNegative();
        // Every resampled mean difference is negative: p = 2 · (1 + 0) / 2001.
        assertThat(test.bootstrapP()).isCloseTo(2.0 / 2001, within(1e-12));
        assertThat(test.significant()).isTrue();
        assertThat(test.high()).isNegative();
    }

    @Test
    void normalisationIsMinMaxAndEqualValuesNormaliseToOne() {
        assertThat(Composite.normalize(new double[] {0.9, 0.6, 0.3}, false))
                .containsExactly(new double[] {1.0, 0.5, 0.0}, within(1e-12));
        assertThat(Composite.normalize(new double[] {0.03, 0.01, 0.02}, true))
                .containsExactly(new double[] {0.0, 1.0, 0.5}, within(1e-12));
        assertThat(Composite.normalize(new double[] {5, 5}, true)).containsExactly(1.0, 1.0);
    }

    @Test
    void paretoFrontierOfFourPoints() {
        // c is dominated by b (more accurate and cheaper); d by a (as accurate and cheaper).
        var frontier = Pareto.frontier(java.util.List.of(new Pareto.Point("a", 0.9, 0.03),
                new Pareto.Point("b", 0.8, 0.01), new Pareto.Point("c", 0.7, 0.02), new Pareto.Point("d", 0.9, 0.04)));
        assertThat(frontier).extracting(Pareto.Point::name).containsExactly("b", "a");
    }
}
