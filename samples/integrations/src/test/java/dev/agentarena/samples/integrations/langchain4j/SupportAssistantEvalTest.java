package dev.agentarena.samples.integrations.langchain4j;

import java.util.List;
import java.util.stream.Stream;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.SystemMessage;

/**
 * A LangChain4j AI service, as the team builds it, evaluated against each of the eval's models. The task builds the
 * service on the {@code ChatModel} the engine provides, so every call the service makes goes to the model under
 * evaluation (here the simulated ones; {@code -Darena.models=openai:gpt-4o-mini} swaps in a real one) and is timed,
 * priced, recorded and budgeted by the engine.
 */
@Eval(value = "support-assistant", scorers = "contains")
@UseModels({"sim_small", "sim_large"})
class SupportAssistantEvalTest {

    /** The team's AI service. */
    interface SupportAssistant {

        @SystemMessage("You are the support assistant of an online shop. Answer in one sentence.")
        String answer(String question);
    }

    @Task
    String answer(String input, ChatModel model) {
        SupportAssistant assistant = AiServices.create(SupportAssistant.class, model);
        return assistant.answer(input);
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
