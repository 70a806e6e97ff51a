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
        EvaluatedCase evaluated = evaluated(repeat(pass("exact", 1.0)), repeat(pass("exact", 1.0)),
                repeat(pass("exact", 1.0)));

        assertThat(evaluated.repeatSummary()).isEqualTo("3/3 passed");
        assertThat(evaluated.repeatEntries()).containsExactly(entry("repeats", "3"),
                entry("repeats_passed", "3/3 passed"),
                entry("flakiness.exact", "3/3 passed, min 1.00, max 1.00, spread 0.00, sd 0.000"));
    }

    @Test
    void aRepeatPassesOnlyWhenEveryScorerPassed() {
        EvaluatedCase evaluated = evaluated(repeat(pass("exact", 1.0), pass("tone", 1.0)),
                repeat(pass("exact", 1.0), fail("tone", 0.0)));

        assertThat(evaluated.repeatSummary()).isEqualTo("1/2 passed, flaky");
        assertThat(evaluated.repeatEntries()).containsEntry("flakiness.exact",
                "2/2 passed, min 1.00, max 1.00, spread 0.00, sd 0.000")
                .containsEntry("flakiness.tone", "1/2 passed, min 0.00, max 1.00, spread 1.00, sd 0.500");
    }

    @Test
    void scoresThatDifferMakeTheCaseFlakyEvenWhenEveryRepeatPassed() {
        EvaluatedCase evaluated = evaluated(repeat(pass("similar", 0.9)), repeat(pass("similar", 0.7)));

        assertThat(evaluated.repeatSummary()).isEqualTo("2/2 passed, flaky");
        assertThat(evaluated.repeatEntries()).containsEntry("flakiness.similar",
                "2/2 passed, min 0.70, max 0.90, spread 0.20, sd 0.100");
    }

    @Test
    void errorsAndAbstentionsAreNotCounted() {
        EvaluatedCase evaluated = evaluated(repeat(pass("exact", 1.0)), repeat(error("exact")),
                repeat(abstained("exact")));

        assertThat(evaluated.repeatSummary()).isEqualTo("1/1 passed");
        assertThat(evaluated.repeatEntries()).containsEntry("repeats", "3").containsEntry("flakiness.exact",
                "1/1 passed, min 1.00, max 1.00, spread 0.00, sd 0.000 (2 not counted)");
    }

    @Test
    void repeatsOfWhichNoneCountedSaySo() {
        EvaluatedCase evaluated = evaluated(repeat(error("exact")), repeat(error("exact")));

        assertThat(evaluated.repeatSummary()).isEqualTo("0/2 counted");
        assertThat(evaluated.repeatEntries()).containsEntry("flakiness.exact", "0/2 counted");
    }

    @Test
    void anEvaluatedCaseKeepsItsRowAndItsRepeatsInOrder() {
        EvaluatedCase evaluated = evaluated(repeat(pass("exact", 1.0)), repeat(fail("exact", 0.0)));

        assertThat(evaluated.caseId()).isEqualTo("refund");
        assertThat(evaluated.row()).isSameAs(ROW);
        assertThat(evaluated.evalCase().input()).isEqualTo("say billing");
        assertThat(evaluated.repeats()).extracting(CaseOutcome::repeat).containsExactly(0, 1);
        assertThat(evaluated.repeats().get(1).results().get(0).record().repeat()).isEqualTo(1);
    }

    @Test
    void aCaseFromAnUnreadableRowHasNoEvalCase() {
        DatasetRow bad = DatasetRow.failed("line-2", "cases.jsonl line 2: no input", null);
        EvaluatedCase evaluated = new EvaluatedCase(bad, List.of(outcome(bad, 0, error("exact"))));

        assertThat(evaluated.caseId()).isEqualTo("line-2");
        assertThat(evaluated.evalCase()).isNull();
        assertThat(evaluated.repeatSummary()).isEqualTo("0/1 counted");
    }

    private static EvaluatedCase evaluated(ScoreOutcome[]... repeats) {
        List<CaseOutcome> outcomes = new ArrayList<>();
        for (ScoreOutcome[] scores : repeats) {
            outcomes.add(outcome(ROW, outcomes.size(), scores));
        }
        return new EvaluatedCase(ROW, outcomes);
    }

    private static ScoreOutcome[] repeat(ScoreOutcome... scores) {
        return scores;
    }

    private static CaseOutcome outcome(DatasetRow row, int repeat, ScoreOutcome... scores) {
        return new CaseOutcome(new CaseOutcome.Origin("repeats", "sim_small", "cases", SecretRedactor.none()), row,
                repeat, "say billing", "billing", "billing", TaskOutput.of("billing"), CallUsage.NONE,
                List.of(scores), dev.agentarena.junit.model.Trajectory.EMPTY);
    }

    private static ScoreOutcome pass(String name, double score) {
        return scored(name, ScoreResult.of(score, true));
    }

    private static ScoreOutcome fail(String name, double score) {
        return scored(name, ScoreResult.of(score, false));
    }

    private static ScoreOutcome error(String name) {
        return new ScoreOutcome(name, "v1", "repeats-" + name, null, new IllegalStateException("model down"));
    }

    private static ScoreOutcome abstained(String name) {
        return scored(name, null);
    }

    private static ScoreOutcome scored(String name, ScoreResult result) {
        return new ScoreOutcome(name, "v1", "repeats-" + name, result, null);
    }
}
