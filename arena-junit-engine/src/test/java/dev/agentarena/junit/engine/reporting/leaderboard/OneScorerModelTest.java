package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.agentarena.junit.engine.reporting.statistics.CaseScores;
import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * A model scored by one scorer takes that scorer's cases as its own rather than averaging them again: its cases,
 * accuracy and pass rate are those it gets beside a second scorer that counts on no case (so that the cases are
 * averaged over scorers as any model's are), for 0/1 scores (a Wilson interval) and for weighted fractional scores (a
 * bootstrap seeded by the model's label).
 */
class OneScorerModelTest {

    private static final LeaderboardSettings SETTINGS = LeaderboardSettings.defaults();

    @ParameterizedTest(name = "binary scores: {0}")
    @ValueSource(booleans = {true, false})
    void aModelOfOneScorerHasTheFiguresOfItsCasesAveragedOverScorers(boolean binary) {
        List<ResultRecord> one = new ArrayList<>();
        List<ResultRecord> two = new ArrayList<>();
        for (int c = 0; c < 200; c++) {
            String id = c % 9 == 4 ? "\u00E9-" + c : "case-" + c;
            for (int r = 0; r < 2; r++) {
                double score = binary ? c * 7 % 3 == 0 ? 0.0 : 1.0 : ((c * 13 + r * 5) % 11) / 10.0;
                double weight = binary || c % 4 != 0 ? 1.0 : 2.5;
                ResultRecord result = Results.of("e", "m", id).scorer("s").repeat(r).score(score).weight(weight)
                        .build();
                one.add(result);
                two.add(result);
                two.add(Results.of("e", "m", id).scorer("t").repeat(r).score(null).weight(weight).build());
            }
        }
        ModelEntry alone = model(one);
        ModelEntry beside = model(two);

        assertThat(alone.accuracy().method()).isEqualTo(binary ? "wilson" : "bootstrap");
        assertThat(alone.accuracy()).isEqualTo(beside.accuracy());
        assertThat(alone.passRate()).isEqualTo(beside.passRate());
        CaseScores a = alone.caseScores();
        CaseScores b = beside.caseScores();
        assertThat(a.size()).isEqualTo(200).isEqualTo(b.size());
        for (int i = 0; i < a.size(); i++) {
            assertThat(a.id(i)).isEqualTo(b.id(i));
            assertThat(a.compareIds(i, b, i)).isZero();
            assertThat(a.score(i)).isEqualTo(b.score(i));
            assertThat(a.passed(i)).isEqualTo(b.passed(i));
            assertThat(a.weight(i)).isEqualTo(b.weight(i));
            if (i > 0) {
                assertThat(a.id(i - 1)).isLessThan(a.id(i));
                assertThat(a.compareIds(i - 1, b, i)).isNegative();
            }
        }
    }

    private static ModelEntry model(List<ResultRecord> records) {
        try (LeaderboardAccumulator accumulator = new LeaderboardAccumulator(SETTINGS)) {
            records.forEach(accumulator::accept);
            return accumulator.build().evals().get(0).models().get(0);
        }
    }
}
