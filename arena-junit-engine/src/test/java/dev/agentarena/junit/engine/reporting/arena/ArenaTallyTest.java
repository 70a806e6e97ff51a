package dev.agentarena.junit.engine.reporting.arena;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.results.ArenaComparison;

/** How the arena counts comparisons: wins, ties, flips as ties and position-bias events, errors, self-preference. */
class ArenaTallyTest {

    private static ArenaComparison compared(String caseId, String abFirst, String baFirst, double score,
            boolean flipped, int lengthA, int lengthB) {
        return new ArenaComparison("e", "d", caseId, "small", "large", "judge", abFirst, baFirst, score, flipped,
                lengthA, lengthB, "", null, 0.001);
    }

    @Test
    void countsWinsTiesFlipsAndPositions() {
        ArenaTally tally = new ArenaTally("e");
        // both orders prefer large: a win of large, each verdict once first once second
        tally.accept(compared("c1", "b", "b", 0.0, false, 10, 40));
        // both orders prefer the first answer shown: a flip, a tie, two first-position wins
        tally.accept(compared("c2", "a", "b", 0.5, true, 10, 10));
        // a win and a tie: 0.75 for small
        tally.accept(compared("c3", "a", "tie", 0.75, false, 50, 10));
        // the judge failed on one order: an error, its other verdict still counts for the position
        tally.accept(new ArenaComparison("e", "d", "c4", "small", "large", "judge", "b", null, null, false, 5, 5,
                "", "B first: unparseable verdict", 0.001));

        ArenaTable table = tally.build(42, 200);

        ArenaTable.Pair pair = table.pairs().get(0);
        assertThat(pair.aWins()).isEqualTo(1);
        assertThat(pair.bWins()).isEqualTo(1);
        assertThat(pair.ties()).isEqualTo(1);
        assertThat(pair.flips()).isEqualTo(1);
        assertThat(pair.errors()).isEqualTo(1);
        assertThat(table.comparisons()).isEqualTo(3);
        assertThat(table.bias().flipRate()).isCloseTo(1 / 3.0, within(1e-12));
        // decisive verdicts: c1 b (second shown), b (first shown: B was first); c2 a (first), b (first); c3 a
        // (first); c4 b (second): 6 decisive, 4 for the first position
        assertThat(table.bias().positions().decisive()).isEqualTo(6);
        assertThat(table.bias().positions().firstWins()).isEqualTo(4);
        // decided with different lengths: c1 (longer won), c3 (longer won)
        assertThat(table.bias().longerWinRate()).isEqualTo(1.0);
        assertThat(table.bias().lengthDecided()).isEqualTo(2);
        assertThat(table.warnings()).anySatisfy(warning -> assertThat(warning).contains("flipped with the order"))
                .anySatisfy(warning -> assertThat(warning).contains("had no verdict from the judge"));
        assertThat(table.costUsd()).isCloseTo(0.004, within(1e-12));
        assertThat(table.models()).extracting(ArenaTable.ModelRating::model).containsExactlyInAnyOrder("small",
                "large");
        ArenaTable.ModelRating small = table.models().stream().filter(m -> m.model().equals("small")).findFirst()
                .orElseThrow();
        assertThat(small.wins()).isEqualTo(1);
        assertThat(small.losses()).isEqualTo(1);
        assertThat(small.ties()).isEqualTo(1);
    }

    @Test
    void warnsWhenTheJudgeIsOneOfTheComparedModels() {
        ArenaTally tally = new ArenaTally("e");
        for (int i = 0; i < 5; i++) {
            tally.accept(new ArenaComparison("e", "d", "c" + i, "judge", "other", "judge", "a", "a", 1.0, false, 3,
                    3, "", null, 0));
        }

        ArenaTable table = tally.build(1, 100);

        assertThat(table.bias().selfPreference()).isEqualTo(1.0);
        assertThat(table.warnings()).anySatisfy(warning -> assertThat(warning).startsWith("self-preference"));
        assertThat(table.models().get(0).model()).isEqualTo("judge");
    }

    @Test
    void theLengthCovariateIsBoundedAndZeroForEqualLengths() {
        assertThat(ArenaTally.lengthDifference(10, 10)).isEqualTo(0.0);
        assertThat(ArenaTally.lengthDifference(1000, 1)).isLessThanOrEqualTo(1.0).isPositive();
        assertThat(ArenaTally.lengthDifference(1, 1000)).isEqualTo(-ArenaTally.lengthDifference(1000, 1));
    }
}
