package dev.agentarena.junit.engine.reporting.statistics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Spearman's rho against {@code scipy.stats.spearmanr} (SciPy 1.17.1), ties included. */
class SpearmanTest {

    @Test
    void equalsSciPy() {
        assertThat(Spearman.rho(new double[] {1, 2, 3, 4, 5}, new double[] {5, 6, 7, 8, 7}))
                .isCloseTo(0.8207826816681233, within(1e-12));
        assertThat(Spearman.rho(new double[] {1, 0, 1, 1, 0, 0, 1, 0.5}, new double[] {10, 3, 8, 20, 3, 5, 7, 6}))
                .isCloseTo(0.9183536867546749, within(1e-12));
        assertThat(Spearman.rho(new double[] {3, 1, 2, 5, 4, 6, 6, 0}, new double[] {2, 2, 1, 4, 4, 5, 7, 1}))
                .isCloseTo(0.9268981954684961, within(1e-12));
    }

    @Test
    void tooFewOrConstantSamplesHaveNoCorrelation() {
        assertThat(Spearman.rho(new double[] {1, 2}, new double[] {2, 1})).isNaN();
        assertThat(Spearman.rho(new double[] {1, 1, 1}, new double[] {1, 2, 3})).isNaN();
    }
}
