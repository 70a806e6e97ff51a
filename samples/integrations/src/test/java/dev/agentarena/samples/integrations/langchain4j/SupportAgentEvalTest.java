package dev.agentarena.samples.integrations.langchain4j;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.SystemMessage;

/**
 * A LangChain4j AI service with three tools, as the team builds it, evaluated against each of the eval's models. The
 * service runs its whole loop through the {@code ChatModel} the engine provides: the model asks for a tool, the
 * service runs the {@code @Tool} method in the app and sends the result back, until the model answers. Every model
 * call is timed, priced, recorded and budgeted by the engine, which keeps the steps as the case's trajectory. The
 * dataset ({@code src/test/resources/support-agent.jsonl}) holds each case's expected trajectory, which the trajectory
 * scorers grade the agent's calls against, and for some cases what a tool returns, so that those cases never reach the
 * order system; {@code contains} grades the answer.
 */
@Eval(value = "support-agent",
        scorers = {"contains", "trajectory", "tool_precision_recall", "trajectory_efficiency"})
@EvalDataset("support-agent.jsonl")
@UseModels({"sim_small", "sim_large"})
public class SupportAgentEvalTest {

    /** The app's tools: in production they call the order system and the ticket desk. */
    public static class SupportTools {

        @Tool(name = "lookup_order", value = "Looks up the status of an order by its number")
        public String lookupOrder(@P("the order number") int orderId) {
            return "Order " + orderId + " shipped on 2 May and arrives within 3 days.";
        }

        @Tool(name = "refund", value = "Starts the refund of an order by its number")
        public String refund(@P("the order number") int orderId) {
            return "The refund of order " + orderId + " is started; the money is back within 5 days.";
        }

        @Tool(name = "escalate", value = "Hands the conversation to a team lead, with the reason")
        public String escalate(@P("the order number") int orderId, @P("why a person must take over") String reason) {
            return "Ticket for order " + orderId + " opened (" + reason + "): a team lead calls within 24 hours.";
        }
    }

    /** The team's AI service. */
    public interface SupportAgent {

        @SystemMessage("You are the support agent of an online shop. Look orders up before you act on them; refund"
                + " when the customer asks for it or the parcel is lost; escalate when they ask for a person.")
        String answer(String question);
    }

    /** The agent as the app builds it, on the chat model it is given. */
    public static SupportAgent agent(ChatModel model) {
        return AiServices.builder(SupportAgent.class).chatModel(model).tools(new SupportTools()).build();
    }

    @Task
    String answer(String input, ChatModel model) {
        return agent(model).answer(input);
    }
}
