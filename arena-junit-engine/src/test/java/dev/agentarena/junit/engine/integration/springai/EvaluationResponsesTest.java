package dev.agentarena.junit.engine.integration.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.ai.evaluation.EvaluationResponse;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.engine.scoring.TestScoringContext;

/** How an {@code EvaluationResponse} reads as a score, and when the evaluator scorers do not apply. */
class EvaluationResponsesTest {

    @Test
    void aPassingResponseWithoutAScoreScoresOne() {
        ScoreResult result = SpringAiIntegration.scoreResult(new EvaluationResponse(true, "", Map.of()), "s")
                .orElseThrow();

        assertThat(result.score()).isEqualTo(1.0);
        assertThat(result.passed()).isTrue();
        assertThat(result.reason()).isEqualTo("EvaluationResponse: pass");
    }

    @Test
    void scoreVerdictFeedbackAndMetadataAreKept() {
        ScoreResult result = SpringAiIntegration.scoreResult(new EvaluationResponse(false, 0.4f, "too vague",
                Map.of("facts", 3, "model", "judge")), "s").orElseThrow();

        assertThat(result.score()).isCloseTo(0.4, org.assertj.core.api.Assertions.within(1e-6));
        assertThat(result.passed()).isFalse();
        assertThat(result.reason()).isEqualTo("too vague");
        assertThat(result.metrics()).containsOnlyKeys("facts");
        assertThat(result.detail()).containsEntry("model", "judge").containsEntry("facts", 3);
    }

    @Test
    void aScoreOutsideZeroToOneIsAnErrorNamingTheScorer() {
        assertThatThrownBy(() -> SpringAiIntegration.scoreResult(new EvaluationResponse(true, 7f, "", Map.of()),
                "stars")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Scorer 'stars' returned an EvaluationResponse with score 7.0, outside [0, 1]; scale it "
                        + "to [0, 1] first");
    }

    @Test
    void otherValuesAreNotEvaluationResponses() {
        assertThat(SpringAiIntegration.scoreResult("yes", "s")).isEmpty();
    }

    @Test
    void theEvaluatorScorersDoNotApplyWithoutContextNorReference() {
        TestScoringContext context = TestScoringContext.forScorer("spring_ai_relevancy")
                .withCase(EvalCase.of("c", "question", null));

        assertThat(SpringAiIntegration.scorers()).extracting(scorer -> scorer.score("answer", null, context))
                .containsOnlyNulls();
    }
}
