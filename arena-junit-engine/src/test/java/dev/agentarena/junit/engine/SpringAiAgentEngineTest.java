package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

import dev.agentarena.junit.engine.fixtures.integration.SpringAiAgentFixture;
import dev.agentarena.junit.engine.fixtures.integration.SpringAiBareToolNameFixture;
import dev.agentarena.junit.engine.fixtures.integration.SupportAgentScript;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

/**
 * A Spring AI {@code ChatClient} with {@code @Tool} callbacks runs its whole loop through the engine's
 * {@code ChatModel}, as Spring AI's own chat models run it: the tools run in the app, a tool's exception reaches the
 * model as Spring AI words it and is marked as an error, every model call goes through the engine, and the final answer
 * is scored. Against a model of the engine ({@code ModelClient}) and a Spring AI {@code ChatModel} of the team's,
 * which the engine sends the tool conversation with internal tool execution off.
 */
class SpringAiAgentEngineTest {

    @TempDir
    Path output;

    @BeforeEach
    void reset() {
        SupportAgentScript.reset();
    }

    @Test
    void aChatClientWithToolsRunsItsLoopThroughTheEngineAndItsFinalAnswerIsScored() {
        EngineRun run = new EngineRun(output).execute(SpringAiAgentFixture.class);

        assertThat(run.lines()).filteredOn(l -> l.get("model").asText().equals("scripted"))
                .extracting(l -> l.get("case_id").asText() + " " + l.get("status").asText() + " "
                        + l.get("output").asText() + " " + l.get("tokens_in").asLong())
                // Spring AI gives a tool's String result to the model as JSON, quoted; an exception's message as it is
                .containsExactlyInAnyOrder("refund passed Done: \"refunded 30 EUR for order 42\" 30",
                        "blocked passed Sorry: order 13 is past the refund window, not refundable 30");
        assertThat(run.lines()).filteredOn(l -> l.get("model").asText().equals("spring-scripted"))
                .extracting(l -> l.get("case_id").asText() + " " + l.get("status").asText())
                .containsExactlyInAnyOrder("refund passed", "blocked passed");
        assertThat(SupportAgentScript.RAN).containsExactlyInAnyOrder("lookupOrder 42", "refund 42", "lookupOrder 13",
                "refund 13", "lookupOrder 42", "refund 42", "lookupOrder 13", "refund 13");
    }

    @Test
    void eachCallCarriesTheConversationSoFarAndAToolsExceptionIsAnErrorResult() {
        new EngineRun(output).execute(SpringAiAgentFixture.class);

        List<ModelRequest> refund = requests("scripted Please refund order 42.");
        assertThat(refund).hasSize(3);
        assertThat(refund.get(0).tools()).extracting(tool -> String.valueOf(((Map<?, ?>) tool.get("function"))
                .get("name"))).containsExactlyInAnyOrder("lookupOrder", "refund");
        ToolCall lookup = new ToolCall("lookupOrder", Map.of("orderId", "42"), "call_1");
        ToolCall refundCall = new ToolCall("refund", Map.of("orderId", "42"), "call_refund");
        assertThat(refund.get(2).messages()).containsExactly(Message.user("Please refund order 42."),
                Message.assistant("", List.of(lookup)),
                Message.toolResult(new ToolCall("lookupOrder", Map.of(), "call_1"), "\"order 42: delivered, 30 EUR\""),
                Message.assistant("Found it.", List.of(refundCall)),
                Message.toolResult(new ToolCall("refund", Map.of(), "call_refund"),
                        "\"refunded 30 EUR for order 42\""));
        // Spring AI's exception processor words the failure; the engine marks it as an error for the trajectory
        List<ModelRequest> blocked = requests("scripted Please refund order 13.");
        assertThat(blocked.get(2).messages().get(2).error()).as("the lookup succeeded").isFalse();
        assertThat(blocked.get(2).messages().get(4)).isEqualTo(Message.toolError(new ToolCall("refund", Map.of(),
                "call_refund"), "order 13 is past the refund window, not refundable"));
    }

    @Test
    void theTeamsSpringAiModelIsSentTheToolConversationWithInternalExecutionOff() {
        new EngineRun(output).execute(SpringAiAgentFixture.class);

        List<Prompt> refund = prompts("spring-scripted Please refund order 42.");
        assertThat(refund).hasSize(3).allSatisfy(prompt -> assertThat(prompt.getOptions())
                .isInstanceOfSatisfying(ToolCallingChatOptions.class, options -> {
                    assertThat(options.getInternalToolExecutionEnabled()).isFalse();
                    assertThat(options.getToolCallbacks()).extracting(t -> t.getToolDefinition().name())
                            .containsExactlyInAnyOrder("lookupOrder", "refund");
                }));
        List<org.springframework.ai.chat.messages.Message> last = refund.get(2).getInstructions();
        assertThat(last).hasSize(5);
        assertThat(((AssistantMessage) last.get(1)).getToolCalls()).extracting(AssistantMessage.ToolCall::id)
                .containsExactly("sp_1");
        assertThat(((ToolResponseMessage) last.get(2)).getResponses()).containsExactly(
                new ToolResponseMessage.ToolResponse("sp_1", "lookupOrder", "\"order 42: delivered, 30 EUR\""));
        assertThat(((ToolResponseMessage) last.get(4)).getResponses()).extracting(ToolResponseMessage.ToolResponse::id)
                .containsExactly("sp_2");
    }

    @Test
    void aBareExpectedToolNameIsCalledWithTheIntItRequiresAndTheTrajectoryPassesOnSimLarge() {
        SpringAiBareToolNameFixture.RAN.clear();
        EngineRun run = new EngineRun(output)
                .with("arena.models.sim_large.wrong-tool-rate", "0")
                .with("arena.models.sim_large.wrong-argument-rate", "0")
                .with("arena.models.sim_large.missing-argument-rate", "0")
                .with("arena.models.sim_large.extra-call-rate", "0")
                .with("arena.models.sim_large.loop-rate", "0")
                .execute(SpringAiBareToolNameFixture.class);

        run.assertNode("with_number", "trajectory", "passed", "");
        run.assertNode("without_number", "trajectory", "passed", "");
        // the number of the user's message, else the documented placeholder 0
        assertThat(SpringAiBareToolNameFixture.RAN).containsExactlyInAnyOrder(1234, 0);
        assertThat(run.line("with_number", "trajectory").get("trajectory").toString()).contains("1234")
                .doesNotContain("cannot take");
    }

    @SuppressWarnings("unchecked")
    private static List<ModelRequest> requests(String key) {
        return (List<ModelRequest>) (List<?>) SupportAgentScript.SENT.get(key);
    }

    @SuppressWarnings("unchecked")
    private static List<Prompt> prompts(String key) {
        return (List<Prompt>) (List<?>) SupportAgentScript.SENT.get(key);
    }
}
