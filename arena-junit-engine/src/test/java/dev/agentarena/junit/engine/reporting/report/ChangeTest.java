package dev.agentarena.junit.engine.reporting.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.reporting.report.Change.Aggregate;

class ChangeTest {

    private static final Aggregate PASSED = new Aggregate(1, 1, 1, 0, 1.0);
    private static final Aggregate FAILED = new Aggregate(1, 1, 0, 0, 0.0);
    private static final Aggregate ERRORED = new Aggregate(1, 0, 0, 1, 0.0);
    private static final Aggregate NOT_APPLICABLE = new Aggregate(1, 0, 0, 0, 0.0);

    @Test
    void aVerdictThatFellRegressesAndOneThatRoseImproves() {
        assertThat(Change.classify(PASSED, FAILED, 0.02)).isEqualTo(Change.REGRESSED);
        assertThat(Change.classify(FAILED, PASSED, 0.02)).isEqualTo(Change.IMPROVED);
        assertThat(Change.classify(PASSED, PASSED, 0.02)).isEqualTo(Change.UNCHANGED);
    }

    @Test
    void anErrorRanksBelowALowScore() {
        assertThat(Change.classify(FAILED, ERRORED, 0.02)).isEqualTo(Change.REGRESSED);
        assertThat(Change.classify(PASSED, ERRORED, 0.02)).isEqualTo(Change.REGRESSED);
        assertThat(Change.classify(ERRORED, FAILED, 0.02)).isEqualTo(Change.IMPROVED);
        assertThat(Change.classify(ERRORED, ERRORED, 0.02)).isEqualTo(Change.UNCHANGED);
        assertThat(Change.classify(NOT_APPLICABLE, ERRORED, 0.02)).isEqualTo(Change.REGRESSED);
        assertThat(Change.classify(NOT_APPLICABLE, FAILED, 0.02)).isEqualTo(Change.UNCHANGED);
    }

    @Test
    void inTheSameVerdictAScoreMustMoveBeyondTheTolerance() {
        Aggregate was = new Aggregate(1, 1, 1, 0, 0.90);

        assertThat(Change.classify(was, new Aggregate(1, 1, 1, 0, 0.89), 0.02)).isEqualTo(Change.UNCHANGED);
        assertThat(Change.classify(was, new Aggregate(1, 1, 1, 0, 0.85), 0.02)).isEqualTo(Change.REGRESSED);
        assertThat(Change.classify(was, new Aggregate(1, 1, 1, 0, 0.95), 0.02)).isEqualTo(Change.IMPROVED);
        assertThat(Change.classify(was, new Aggregate(1, 1, 1, 0, 0.92), 0.02)).isEqualTo(Change.UNCHANGED);
    }

    @Test
    void repeatsAreReducedToTheMajorityVerdictAndTheMeanScore() {
        Aggregate twoOfThree = new Aggregate(3, 3, 2, 0, 2.0);
        Aggregate oneOfThree = new Aggregate(3, 3, 1, 0, 1.0);
        Aggregate oneOfTwo = new Aggregate(2, 2, 1, 0, 1.0);

        assertThat(twoOfThree.rank()).isEqualTo(2);
        assertThat(oneOfTwo.rank()).as("a tie is no majority").isEqualTo(1);
        assertThat(Change.classify(twoOfThree, oneOfThree, 0.02)).isEqualTo(Change.REGRESSED);
    }

    @Test
    void aKeyOnOneSideOnlyIsNewOrRemoved() {
        assertThat(Change.classify(null, PASSED, 0.02)).isEqualTo(Change.NEW);
        assertThat(Change.classify(FAILED, null, 0.02)).isEqualTo(Change.REMOVED);
    }
}
