package dev.agentarena.samples.integrations.springai;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.ScorerOption;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;

/**
 * The team's Spring AI {@code ChatClient} with three tool callbacks, on the {@code ChatClient} the engine provides.
 * The engine's {@code ChatModel} runs the tool loop as Spring AI's own chat models do: the model asks for a tool,
 * Spring AI runs the {@code @Tool} method in the app and the result goes back to the model through the engine, until
 * it answers. Every model call is timed, priced, recorded and budgeted, and the steps are the case's trajectory. The
 * dataset is the LangChain4j sample's ({@code src/test/resources/support-agent.jsonl}): the same tools, the same
 * expected trajectories; here {@code trajectory} passes a case when the expected calls come in order, others allowed
 * between them ({@code mode = in_order}).
 */
@Eval(value = "spring-ai-support-agent",
        scorers = {"contains", "trajectory", "tool_precision_recall", "trajectory_efficiency"})
@ScorerOption(scorer = "trajectory", name = "mode", value = "in_order")
@EvalDataset("support-agent.jsonl")
@UseModels({"sim_small", "sim_large"})
public class SupportAgentToolsEvalTest {

    /** The app's tools: in production they call the order system and the ticket desk. */
    public static class SupportTools {

        @Tool(name = "lookup_order", description = "Looks up the status of an order by its number")
        public String lookupOrder(@ToolParam(description = "the order number") int orderId) {
            return "Order " + orderId + " shipped on 2 May and arrives within 3 days.";
        }

        @Tool(name = "refund", description = "Starts the refund of an order by its number")
        public String refund(@ToolParam(description = "the order number") int orderId) {
            return "The refund of order " + orderId + " is started; the money is back within 5 days.";
        }

        @Tool(name = "escalate", description = "Hands the conversation to a team lead, with the reason")
        public String escalate(@ToolParam(description = "the order number") int orderId,
                @ToolParam(description = "why a person must take over") String reason) {
            return "Ticket for order " + orderId + " opened (" + reason + "): a team lead calls within 24 hours.";
        }
    }

    @Task
    String answer(String input, ChatClient chat) {
        return chat.prompt()
                .system("You are the support agent of an online shop. Look orders up before you act on them; refund"
                        + " when the customer asks for it or the parcel is lost; escalate when they ask for a person.")
                .user(input)
                .tools(new SupportTools())
                .call()
                .content();
    }
}
