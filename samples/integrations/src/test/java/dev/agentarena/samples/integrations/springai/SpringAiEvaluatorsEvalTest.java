package dev.agentarena.samples.integrations.springai;

import java.util.List;
import java.util.stream.Stream;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.evaluation.EvaluationRequest;
import org.springframework.ai.evaluation.EvaluationResponse;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;

/**
 * The team's Spring AI code on the {@code ChatClient} the engine provides, graded by Spring AI's evaluators: by
 * name ({@code spring_ai_relevancy}, {@code spring_ai_fact_checking}, asking the run's judge, {@code sim_judge} by
 * default, offline) and by returning an {@code EvaluationResponse} from a {@code @Scorer} method.
 */
@Eval(value = "spring-ai-support", scorers = {"spring_ai_relevancy", "spring_ai_fact_checking"})
@UseModels({"sim_small", "sim_large"})
class SpringAiEvaluatorsEvalTest {

    @Task
    String answer(String input, ChatClient chat) {
        return chat.prompt().system("You are the support assistant of an online shop. Answer in one sentence.")
                .user(input).call().content();
    }

    @Scorer
    EvaluationResponse concise(String input, String output) {
        return new ConcisenessEvaluator().evaluate(new EvaluationRequest(input, List.of(), output));
    }

    @EvalDataset
    Stream<EvalCase> questions() {
        return Stream.of(
                EvalCase.of("return_window", "How long do I have to return an item?", List.of("30 days")),
                EvalCase.of("shipping_cost", "Is shipping free?", List.of("orders over $50")),
                EvalCase.of("order_status", "Where can I see the status of my order?", List.of("My Orders")),
                EvalCase.of("gift_wrap", "Do you offer gift wrapping?", List.of("gift wrapping", "$5")));
    }
}
