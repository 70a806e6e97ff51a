package dev.agentarena.junit.engine.evaluation;

import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.secrets.SecretRedactor;

/**
 * How a case went over its repeats, as its node shows it: k of n passed, flaky when verdicts or scores differ, and
 * per scorer the spread of the scores that counted.
 */
class CaseRepeatsTest {

    private static final DatasetRow ROW = row(EvalCase.of("refund", "say billing", "billing"));

    @Test
    void repeatsThatAllPassWithTheSameScoresAreNotFlaky() {
        List<CaseOutcome> evaluated = evaluated(repeat(pass("exact", 1.0)), repeat(pass("exact", 1.0)),
                repeat(pass("exact", 1.0)));

        assertThat(CaseOutcome.repeatSummary(evaluated)).isEqualTo("3/3 passed");
        assertThat(CaseOutcome.repeatEntries(evaluated)).containsExactly(entry("repeats", "3"),
                entry("repeats_passed", "3/3 passed"),
                entry("flakiness.exact", "3/3 passed, min 1.00, max 1.00, spread 0.00, sd 0.000"));
    }

    @Test
    void aRepeatPassesOnlyWhenEveryScorerPassed() {
        List<CaseOutcome> evaluated = evaluated(repeat(pass("exact", 1.0), pass("tone", 1.0)),
                repeat(pass("exact", 1.0), fail("tone", 0.0)));

        assertThat(CaseOutcome.repeatSummary(evaluated)).isEqualTo("1/2 passed, flaky");
        assertThat(CaseOutcome.repeatEntries(evaluated)).containsEntry("flakiness.exact",
                "2/2 passed, min 1.00, max 1.00, spread 0.00, sd 0.000")
                .containsEntry("flakiness.tone", "1/2 passed, min 0.00, max 1.00, spread 1.00, sd 0.500");
    }

    @Test
    void scoresThatDifferMakeTheCaseFlakyEvenWhenEveryRepeatPassed() {
        List<CaseOutcome> evaluated = evaluated(repeat(pass("similar", 0.9)), repeat(pass("similar", 0.7)));

        assertThat(CaseOutcome.repeatSummary(evaluated)).isEqualTo("2/2 passed, flaky");
        assertThat(CaseOutcome.repeatEntries(evaluated)).containsEntry("flakiness.similar",
                "2/2 passed, min 0.70, max 0.90, spread 0.20, sd 0.100");
    }

    @Test
    void errorsAndAbstentionsAreNotCounted() {
        List<CaseOutcome> evaluated = evaluated(repeat(pass("exact", 1.0)), repeat(error("exact")),
                repeat(abstained("exact")));

        assertThat(CaseOutcome.repeatSummary(evaluated)).isEqualTo("1/1 passed");
        assertThat(CaseOutcome.repeatEntries(evaluated)).containsEntry("repeats", "3").containsEntry("flakiness.exact",
                "1/1 passed, min 1.00, max 1.00, spread 0.00, sd 0.000 (2 not counted)");
    }

    @Test
    void repeatsOfWhichNoneCountedSaySo() {
        List<CaseOutcome> evaluated = evaluated(repeat(error("exact")), repeat(error("exact")));

        assertThat(CaseOutcome.repeatSummary(evaluated)).isEqualTo("0/2 counted");
        assertThat(CaseOutcome.repeatEntries(evaluated)).containsEntry("flakiness.exact", "0/2 counted");
    }

    @Test
    void aCaseKeepsItsRowAndItsRepeatsInOrder() {
        List<CaseOutcome> evaluated = evaluated(repeat(pass("exact", 1.0)), repeat(fail("exact", 0.0)));

        assertThat(evaluated).extracting(CaseOutcome::caseId).containsOnly("refund");
        assertThat(evaluated.get(0).row()).isSameAs(ROW);
        assertThat(evaluated.get(0).evalCase().input()).isEqualTo("say billing");
        assertThat(evaluated).extracting(CaseOutcome::repeat).containsExactly(0, 1);
        assertThat(evaluated.get(1).results().get(0).record().repeat()).isEqualTo(1);
    }

    @Test
    void aCaseFromAnUnreadableRowHasNoEvalCase() {
        DatasetRow bad = DatasetRow.failed("line-2", "cases.jsonl line 2: no input", null);
        List<CaseOutcome> evaluated = List.of(outcome(bad, 0, error("exact")));

        assertThat(evaluated.get(0).caseId()).isEqualTo("line-2");
        assertThat(evaluated.get(0).evalCase()).isNull();
        assertThat(CaseOutcome.repeatSummary(evaluated)).isEqualTo("0/1 counted");
    }

    private static List<CaseOutcome> evaluated(Score[]... repeats) {
        List<CaseOutcome> outcomes = new ArrayList<>();
        for (Score[] scores : repeats) {
            outcomes.add(outcome(ROW, outcomes.size(), scores));
        }
        return outcomes;
    }

    private static Score[] repeat(Score... scores) {
        return scores;
    }

    private static CaseOutcome outcome(DatasetRow row, int repeat, Score... scores) {
        CaseOutcome.Builder outcome = new CaseOutcome.Builder(new CaseOutcome.Origin("repeats", "sim_small", "cases",
                SecretRedactor.none()), row, repeat, "say billing", "billing", "billing", TaskOutput.of("billing"),
                CallUsage.NONE, dev.agentarena.junit.model.Trajectory.EMPTY);
        for (Score score : scores) {
            outcome.add(score.name(), "v1", "repeats-" + score.name(), score.result(), score.error(), false);
        }
        return outcome.build();
    }

    /** What one scorer said of one repeat. */
    private record Score(String name, ScoreResult result, Throwable error) {
    }

    private static Score pass(String name, double score) {
        return new Score(name, ScoreResult.of(score, true), null);
    }

    private static Score fail(String name, double score) {
        return new Score(name, ScoreResult.of(score, false), null);
    }

    private static Score error(String name) {
        return new Score(name, null, new IllegalStateException("model down"));
    }

    private static Score abstained(String name) {
        return new Score(name, null, null);
    }
}
