package dev.agentarena.junit.engine.integration.springai;

import java.util.Locale;
import java.util.Map;

import org.springframework.ai.evaluation.EvaluationResponse;

import dev.agentarena.junit.ScoreResult;

/**
 * A Spring AI {@code EvaluationResponse} as a score: its verdict is the verdict, its score the score (a passing
 * response without a score, as the yes/no evaluators return, scores 1), its feedback the reason, and its metadata
 * the detail, numbers also as metrics.
 */
final class EvaluationResponses {

    private EvaluationResponses() {
    }

    static boolean isResponse(Object value) {
        return value instanceof EvaluationResponse;
    }

    static boolean isResponseType(Class<?> type) {
        return EvaluationResponse.class.isAssignableFrom(type);
    }

    /**
     * @throws IllegalArgumentException when the score lies outside [0, 1] or is not a number
     */
    static ScoreResult toScoreResult(Object value, String scorerName) {
        EvaluationResponse response = (EvaluationResponse) value;
        boolean passed = response.isPass();
        double score = response.getScore();
        if (!Double.isFinite(score) || score < 0 || score > 1) {
            throw new IllegalArgumentException("Scorer '" + scorerName + "' returned an EvaluationResponse with score "
                    + score + ", outside [0, 1]; scale it to [0, 1] first");
        }
        if (passed && score == 0) {
            score = 1.0;
        }
        String feedback = response.getFeedback() == null ? "" : response.getFeedback().strip();
        ScoreResult result = ScoreResult.of(score, passed).withReason(feedback);
        Map<String, Object> metadata = response.getMetadata();
        if (metadata != null) {
            for (Map.Entry<String, Object> entry : metadata.entrySet()) {
                if (entry.getKey() == null || entry.getValue() == null) {
                    continue;
                }
                result = result.withDetail(entry.getKey(), entry.getValue());
                if (entry.getValue() instanceof Number && Double.isFinite(((Number) entry.getValue()).doubleValue())) {
                    result = result.withMetric(entry.getKey().toLowerCase(Locale.ROOT),
                            ((Number) entry.getValue()).doubleValue());
                }
            }
        }
        return result;
    }
}
