package dev.agentarena.samples.integrations.langchain4j;

import java.util.List;
import java.util.stream.Stream;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Models;
import dev.agentarena.junit.Task;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.SystemMessage;

/**
 * A LangChain4j AI service with tools, as the team builds it, evaluated against each of the eval's models. The
 * service runs its whole loop through the {@code ChatModel} the engine provides: the model asks for a tool, the
 * service runs the {@code @Tool} method in the app and sends the result back, until the model answers. Every model
 * call is timed, priced, recorded and budgeted by the engine, which keeps the steps as the case's trajectory.
 */
@Eval(value = "support-agent", scorers = "contains")
@Models({"sim_small", "sim_large"})
class SupportAgentEvalTest {

    /** The app's tools: in production they call the order system. */
    public static class OrderTools {

        @Tool("Looks up the status of an order by its number")
        public String orderStatus(String orderNumber) {
            return "Order " + orderNumber + " shipped on 2 May and arrives within 3 days.";
        }

        @Tool("Starts the refund of an order by its number")
        public String refund(String orderNumber) {
            return "The refund of order " + orderNumber + " is started; the money is back within 5 days.";
        }
    }

    /** The team's AI service. */
    interface SupportAgent {

        @SystemMessage("You are the support agent of an online shop. Use the tools for questions about orders.")
        String answer(String question);
    }

    @Task
    String answer(String input, ChatModel model) {
        SupportAgent agent = AiServices.builder(SupportAgent.class).chatModel(model).tools(new OrderTools()).build();
        return agent.answer(input);
    }

    @EvalDataset
    Stream<EvalCase> requests() {
        return Stream.of(
                EvalCase.of("where_is_my_order", "Where is my order 1234?", List.of("1234", "3 days")),
                EvalCase.of("refund", "Please refund order 5678.", List.of("5678", "5 days")),
                EvalCase.of("return_window", "How long do I have to return an item?", List.of("30 days")));
    }
}
