package dev.agentarena.samples.tracing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

/**
 * A support agent, a loop over the engine's {@link Model} with two tools, on the simulated models. Nothing here is
 * about tracing: {@code junit-platform.properties} turns it on, and every case of the run becomes a span with a
 * {@code chat} span per model call, an {@code execute_tool} span per tool execution and an evaluation event per score.
 */
@Eval(value = "support-agent-traced", scorers = {"contains", "trajectory"})
@EvalDataset("support-agent.jsonl")
@UseModels({"sim_small", "sim_large"})
class SupportAgentTracedEvalTest {

    private static final List<Map<String, Object>> TOOLS = List.of(
            tool("lookup_order", "Looks up the status of an order by its number"),
            tool("refund", "Starts the refund of an order by its number"));

    @Task
    String answer(String input, Model model) {
        List<Message> conversation = new ArrayList<>(List.of(
                Message.system("You are the support agent of an online shop."), Message.user(input)));
        while (true) {
            Completion answer = model.complete(ModelRequest.ofMessages(conversation).withTools(TOOLS));
            if (answer.toolCalls().isEmpty()) {
                return answer.text();
            }
            conversation.add(Message.assistant(answer.text(), answer.toolCalls()));
            for (ToolCall call : answer.toolCalls()) {
                conversation.add(Message.toolResult(call, run(call)));
            }
        }
    }

    /** Calls no tool the case did not need, judged from what the agent did. */
    @Scorer
    ScoreResult noNeedlessRefund(String input, ScoringContext context) {
        List<String> tools = context.trajectory().toolCalls().stream().map(ToolCall::name).toList();
        boolean refund = tools.contains("refund");
        return refund == input.contains("refund") ? ScoreResult.pass("tools called: " + tools)
                : ScoreResult.fail("tools called: " + tools);
    }

    /** The app's tools: in production they call the order system. */
    private static String run(ToolCall call) {
        Object order = call.arguments().get("orderId");
        return switch (call.name()) {
            case "lookup_order" -> "Order " + order + " shipped on 2 May and arrives within 3 days.";
            case "refund" -> "The refund of order " + order + " is started.";
            default -> "no tool " + call.name();
        };
    }

    private static Map<String, Object> tool(String name, String description) {
        return Map.of("type", "function", "function", Map.of("name", name, "description", description,
                "parameters", Map.of("type", "object", "properties", Map.of("orderId", Map.of("type", "integer")))));
    }
}
