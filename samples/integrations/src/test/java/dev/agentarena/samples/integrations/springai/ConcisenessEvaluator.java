package dev.agentarena.samples.integrations.springai;

import java.util.Map;

import org.springframework.ai.evaluation.EvaluationRequest;
import org.springframework.ai.evaluation.EvaluationResponse;
import org.springframework.ai.evaluation.Evaluator;

/**
 * A Spring AI {@link Evaluator} a team might already use in plain JUnit tests: passes answers of at most
 * {@value #MAX_WORDS} words, scoring shorter ones higher.
 */
public final class ConcisenessEvaluator implements Evaluator {

    static final int MAX_WORDS = 25;

    @Override
    public EvaluationResponse evaluate(EvaluationRequest request) {
        String answer = request.getResponseContent() == null ? "" : request.getResponseContent().strip();
        int words = answer.isEmpty() ? 0 : answer.split("\\s+").length;
        float score = Math.max(0f, 1f - (float) words / (2 * MAX_WORDS));
        return new EvaluationResponse(words <= MAX_WORDS, score, words + " words", Map.of("words", words));
    }
}
