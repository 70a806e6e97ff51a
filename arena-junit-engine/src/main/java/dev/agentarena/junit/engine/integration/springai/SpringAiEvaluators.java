package dev.agentarena.junit.engine.integration.springai;

import java.util.ArrayList;
import java.util.List;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.evaluation.FactCheckingEvaluator;
import org.springframework.ai.chat.evaluation.RelevancyEvaluator;
import org.springframework.ai.document.Document;
import org.springframework.ai.evaluation.EvaluationRequest;
import org.springframework.ai.evaluation.Evaluator;

import dev.agentarena.junit.engine.models.judge.JudgeCalls;

/** The part of {@link SpringAiEvaluatorScorer} that names Spring AI types; loaded only when they are present. */
final class SpringAiEvaluators {

    private SpringAiEvaluators() {
    }

    /** Runs the evaluator with the judge behind its chat client; returns its {@code EvaluationResponse}. */
    static Object evaluate(SpringAiEvaluatorScorer.Kind kind, String userText, List<String> documents, String output,
            JudgeCalls judge) {
        ChatClient.Builder judgeClient = ChatClient.builder(new ArenaSpringChatModel(judge.modelKey(), judge));
        Evaluator evaluator = kind == SpringAiEvaluatorScorer.Kind.RELEVANCY
                ? RelevancyEvaluator.builder().chatClientBuilder(judgeClient).build()
                : FactCheckingEvaluator.builder(judgeClient).build();
        List<Document> context = new ArrayList<>();
        for (String document : documents) {
            context.add(new Document(document));
        }
        return evaluator.evaluate(new EvaluationRequest(userText, context, output));
    }
}
