package dev.agentarena.junit.engine.integration.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;

import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

/** The translation between the engine's requests and Spring AI's prompts, tool conversations included, both ways. */
class SpringAiMessagesTest {

    private static final Map<String, Object> LOOKUP = Map.of("type", "function", "function", Map.of("name", "lookup",
            "description", "Looks up an order", "parameters", Map.of("type", "object", "properties",
                    Map.of("id", Map.of("type", "string")), "required", List.of("id"))));
    private static final Map<String, Object> REFUND = Map.of("type", "function", "function", Map.of("name", "refund",
            "parameters", Map.of("type", "object", "properties", Map.of())));

    private static final ToolCall LOOKUP_CALL = new ToolCall("lookup", Map.of("id", "42"), "call_abc");
    private static final ToolCall REFUND_CALL = new ToolCall("refund", Map.of("id", "42"), "call_def");

    private static ModelRequest toolConversation() {
        return ModelRequest.ofMessages(List.of(Message.system("Be brief."), Message.user("Refund order 42"),
                Message.assistant("", List.of(LOOKUP_CALL, REFUND_CALL)), Message.toolResult(LOOKUP_CALL, "shipped"),
                Message.toolError(REFUND_CALL, "refunds are closed"), Message.user("And now?")));
    }

    @Test
    void aToolConversationIsSentToASpringAiModelWithTheToolsAndInternalExecutionOff() {
        Prompt prompt = SpringAiMessages.prompt(toolConversation().withTools(List.of(LOOKUP, REFUND))
                .withTemperature(0.3), "bot");

        assertThat(prompt.getInstructions()).hasSize(5);
        assertThat(prompt.getInstructions().get(2)).isInstanceOfSatisfying(AssistantMessage.class, assistant ->
                assertThat(assistant.getToolCalls()).extracting(c -> c.id() + " " + c.name() + " " + c.arguments())
                        .containsExactly("call_abc lookup {\"id\":\"42\"}", "call_def refund {\"id\":\"42\"}"));
        // the results of one turn's calls travel in one ToolResponseMessage, as Spring AI sends them
        assertThat(prompt.getInstructions().get(3)).isInstanceOfSatisfying(ToolResponseMessage.class, results ->
                assertThat(results.getResponses()).containsExactly(
                        new ToolResponseMessage.ToolResponse("call_abc", "lookup", "shipped"),
                        new ToolResponseMessage.ToolResponse("call_def", "refund", "refunds are closed")));
        assertThat(prompt.getInstructions().get(4)).isInstanceOf(UserMessage.class);
        assertThat(prompt.getOptions()).isInstanceOfSatisfying(ToolCallingChatOptions.class, options -> {
            assertThat(options.getInternalToolExecutionEnabled()).isFalse();
            assertThat(options.getTemperature()).isEqualTo(0.3);
            assertThat(options.getToolCallbacks()).extracting(t -> t.getToolDefinition().name())
                    .containsExactly("lookup", "refund");
            assertThat(options.getToolCallbacks().get(0).getToolDefinition().inputSchema())
                    .contains("\"required\":[\"id\"]");
        });
        ToolCallback described = ((ToolCallingChatOptions) prompt.getOptions()).getToolCallbacks().get(0);
        assertThatThrownBy(() -> described.call("{}")).hasMessageContaining("bot: tool lookup was offered to the "
                + "model with internal tool execution disabled; the engine's caller runs it");
    }

    @Test
    void theToolChoiceNarrowsWhatIsOffered() {
        ModelRequest request = ModelRequest.ofPrompt("Refund order 42").withTools(List.of(LOOKUP, REFUND));

        assertThat(SpringAiMessages.prompt(request.withToolChoice("none"), "bot").getOptions()
                instanceof ToolCallingChatOptions).as("tools offered under 'none'").isFalse();
        assertThat(((ToolCallingChatOptions) SpringAiMessages.prompt(request.withToolChoice("refund"), "bot")
                .getOptions()).getToolCallbacks()).extracting(t -> t.getToolDefinition().name())
                .containsExactly("refund");
        assertThatThrownBy(() -> SpringAiMessages.prompt(request.withToolChoice("escalate"), "bot"))
                .hasMessageContaining("bot: the request's tool choice is 'escalate'");
    }

    @Test
    void aPromptInTheMiddleOfAToolLoopIsTheEnginesConversationWithItsErrors() {
        Prompt prompt = SpringAiMessages.prompt(toolConversation(), "bot");

        ModelRequest back = SpringAiMessages.modelRequest(prompt, List.of(), Set.of(SpringAiMessages.resultKey(
                new ToolResponseMessage.ToolResponse("call_def", "refund", "refunds are closed"))));

        assertThat(back.messages()).isEqualTo(List.of(Message.system("Be brief."), Message.user("Refund order 42"),
                Message.assistant("", List.of(LOOKUP_CALL, REFUND_CALL)),
                Message.toolResult(new ToolCall("lookup", Map.of(), "call_abc"), "shipped"),
                Message.toolError(new ToolCall("refund", Map.of(), "call_def"), "refunds are closed"),
                Message.user("And now?")));
        assertThat(SpringAiMessages.modelRequest(prompt, List.of(), Set.of()).messages().get(4).error()).isFalse();
    }

    @Test
    void callsWithoutIdsAreNumberedOnFromTheConversationAndComeBackWithTheirIds() {
        Completion completion = Completion.of("").withToolCalls(List.of(new ToolCall("lookup", Map.of("id", "42")),
                new ToolCall("refund", Map.of(), "call_model"))).withTokens(30, 8);

        ChatResponse response = SpringAiMessages.chatResponse(completion, "sim_small", 4);
        Completion back = SpringAiMessages.completion(response);

        assertThat(response.getResult().getOutput().getToolCalls()).extracting(AssistantMessage.ToolCall::id)
                .containsExactly("call_5", "call_model");
        assertThat(back.toolCalls()).extracting(ToolCall::id).containsExactly("call_5", "call_model");
        assertThat(back.toolCalls().get(0).arguments()).isEqualTo(Map.of("id", "42"));
        assertThat(back.tokensIn()).isEqualTo(30);
    }
}
