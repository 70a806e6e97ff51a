package dev.agentarena.junit.engine.evaluation;

import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.engine.secrets.SecretRedactor;
import dev.agentarena.junit.model.Trajectory;

/** One repeat's results as its builder makes them: one per score, settled in dataset order when a problem is shared. */
class CaseOutcomeTest {

    private static final CaseOutcome.Origin ORIGIN = new CaseOutcome.Origin("outcomes", "sim_small", "cases",
            SecretRedactor.none());

    @Test
    void eachScoreBecomesOneResultInTheOrderAdded() {
        CaseOutcome.Builder builder = builder("q1");
        builder.add("exact_match", "v1", "outcomes-exact-match", ScoreResult.of(1.0, true), null, false);
        builder.add("manual", "v2", "outcomes-manual", ScoreResult.unscored(0.5, "for a person"), null, true);
        builder.add("tone", "v3", "outcomes-tone", null, null, false);

        CaseOutcome outcome = builder.build();

        assertThat(outcome.unsettled()).isFalse();
        assertThat(outcome.settled(new SharedProblems())).isSameAs(outcome);
        assertThat(outcome.results()).extracting(result -> result.record().scorer(),
                result -> result.record().status(), result -> result.record().score()).containsExactly(
                        tuple("exact_match", ResultStatus.PASSED, 1.0),
                        tuple("manual", ResultStatus.NOT_APPLICABLE, 0.5),
                        tuple("tone", ResultStatus.NOT_APPLICABLE, null));
        assertThat(outcome.result(0)).isSameAs(outcome.results().get(0));
        assertThat(outcome.scoredOutput()).isEqualTo("billing");
    }

    @Test
    void aSharedProblemIsTheErrorOfTheFirstCaseHandedBackAndNotRunForTheOthers() {
        SharedProblems problems = new SharedProblems();
        SharedProblems.Problem problem = problems.met("scorer classification needs option labels",
                new ConfigurationException("scorer 'classification' needs option 'labels'"));
        CaseOutcome second = pending("q2", problem);
        CaseOutcome first = pending("q1", problem);

        assertThat(first.unsettled()).isTrue();
        ResultRecord reported = first.settled(problems).results().get(1).record();
        ResultRecord notRun = second.settled(problems).results().get(1).record();

        assertThat(first.settled(problems).results().get(0).record().status()).isEqualTo(ResultStatus.PASSED);
        assertThat(reported.status()).isEqualTo(ResultStatus.ERROR);
        assertThat(reported.error()).isEqualTo("ConfigurationException: scorer 'classification' needs option 'labels'");
        assertThat(notRun.status()).isEqualTo(ResultStatus.NOT_RUN);
        assertThat(notRun.error()).isNull();
        assertThat(notRun.reason()).isEqualTo("scorer 'classification' needs option 'labels' (reported once, as the"
                + " error of case 'q1' of cases on sim_small, scorer 'classification')");
    }

    @Test
    void aScoreNameEmittedTwiceMakesEveryResultOfItTheError() {
        CaseOutcome.Builder builder = builder("q1");
        builder.add("shared", "v1", "outcomes-first", ScoreResult.of(1.0, true), null, false);
        builder.add("other", "v2", "outcomes-other", ScoreResult.of(1.0, true), null, false);
        IllegalStateException clash = new IllegalStateException("Score name 'shared' is emitted by both");
        builder.replaceWithError("shared", clash);
        builder.add("shared", "v3", "outcomes-second", null, clash, false);

        List<ResultRecord> records = builder.build().results().stream().map(ScorerResult::record).toList();

        assertThat(records).extracting(ResultRecord::scorer, ResultRecord::scorerVersion, ResultRecord::status)
                .containsExactly(tuple("shared", "v1", ResultStatus.ERROR),
                        tuple("other", "v2", ResultStatus.PASSED),
                        tuple("shared", "v3", ResultStatus.ERROR));
    }

    private static CaseOutcome pending(String caseId, SharedProblems.Problem problem) {
        CaseOutcome.Builder builder = builder(caseId);
        builder.add("exact_match", "v1", "outcomes-exact-match", ScoreResult.of(1.0, true), null, false);
        builder.add("classification", "v2", "outcomes-classification", null, new SharedProblems.Pending(problem),
                false);
        return builder.build();
    }

    private static CaseOutcome.Builder builder(String caseId) {
        return new CaseOutcome.Builder(ORIGIN, row(EvalCase.of(caseId, "say billing", "billing")), 0, "say billing",
                "billing", "billing", TaskOutput.of("billing"), CallUsage.NONE, Trajectory.EMPTY);
    }
}
