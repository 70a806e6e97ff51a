package dev.agentarena.samples.integrations.springai;

import java.util.List;
import java.util.stream.Stream;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.tool.annotation.Tool;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Models;
import dev.agentarena.junit.Task;

/**
 * The team's Spring AI {@code ChatClient} with tool callbacks, on the {@code ChatClient} the engine provides. The
 * engine's {@code ChatModel} runs the tool loop as Spring AI's own chat models do: the model asks for a tool, Spring
 * AI runs the {@code @Tool} method in the app and the result goes back to the model through the engine, until it
 * answers. Every model call is timed, priced, recorded and budgeted, and the steps are the case's trajectory.
 */
@Eval(value = "spring-ai-support-agent", scorers = "contains")
@Models({"sim_small", "sim_large"})
class SupportAgentToolsEvalTest {

    /** The app's tools: in production they call the order system. */
    public static class OrderTools {

        @Tool(description = "Looks up the status of an order by its number")
        public String orderStatus(String orderNumber) {
            return "Order " + orderNumber + " shipped on 2 May and arrives within 3 days.";
        }

        @Tool(description = "Starts the refund of an order by its number")
        public String refund(String orderNumber) {
            return "The refund of order " + orderNumber + " is started; the money is back within 5 days.";
        }
    }

    @Task
    String answer(String input, ChatClient chat) {
        return chat.prompt()
                .system("You are the support agent of an online shop. Use the tools for questions about orders.")
                .user(input)
                .tools(new OrderTools())
                .call()
                .content();
    }

    @EvalDataset
    Stream<EvalCase> requests() {
        return Stream.of(
                EvalCase.of("where_is_my_order", "Where is my order 1234?", List.of("1234", "3 days")),
                EvalCase.of("refund", "Please refund order 5678.", List.of("5678", "5 days")),
                EvalCase.of("return_window", "How long do I have to return an item?", List.of("30 days")));
    }
}
