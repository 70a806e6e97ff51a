package dev.agentarena.samples.springai2;

import org.springframework.ai.chat.client.ChatClient;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.EvalModel;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;

/**
 * The desk's own Spring AI {@code ChatClient} as a model of the eval ({@code @EvalModel}), ranked with a simulated
 * LLM on the order questions. The task is the agent on the {@code ChatClient} the engine provides: the engine sends
 * the offered tools to the desk's client, which answers with its tool calls (the engine's caller runs the tools, so
 * the client must not), and the agent's loop runs them here.
 */
@Eval(value = "spring-ai-2-desk-client", scorers = {"contains", "trajectory"})
@EvalDataset("desk-orders.jsonl")
@UseModels({"sim_large", "desk-client"})
class DeskClientEvalTest {

    @EvalModel("desk-client")
    ChatClient deskClient() {
        return ChatClient.builder(new RuleBasedDeskModel()).defaultSystem("You are the desk's fallback.").build();
    }

    @Task
    String answer(String input, ChatClient chat) {
        return chat.prompt().user(input).tools(new OrderTools()).call().content();
    }
}
