package dev.agentarena.junit.engine.integration.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.response.ChatResponse;

/** The translation between the engine's requests and LangChain4j's, both ways. */
class LangChain4jMessagesTest {

    private static final Map<String, Object> LOOKUP = Map.of("type", "function", "function", Map.of("name", "lookup",
            "description", "Looks up an order", "parameters", Map.of("type", "object", "properties",
                    Map.of("id", Map.of("type", "string")), "required", List.of("id"))));

    @Test
    void aRequestCarriesItsMessagesSamplingAndToolsBothWays() {
        ModelRequest request = ModelRequest.ofMessages(List.of(Message.system("Be brief."), Message.user("Where?"),
                Message.assistant("Which order?"), Message.user("42"))).withTemperature(0.2).withMaxTokens(64)
                .withTools(List.of(LOOKUP));

        ChatRequest chat = LangChain4jMessages.chatRequest(request, "bot");
        ModelRequest back = LangChain4jMessages.modelRequest(chat);

        assertThat(chat.messages()).hasSize(4).first().isEqualTo(SystemMessage.from("Be brief."));
        assertThat(chat.temperature()).isEqualTo(0.2);
        assertThat(chat.maxOutputTokens()).isEqualTo(64);
        assertThat(chat.toolSpecifications()).singleElement().satisfies(tool -> {
            assertThat(tool.name()).isEqualTo("lookup");
            assertThat(tool.parameters().required()).containsExactly("id");
        });
        assertThat(back.messages()).isEqualTo(request.messages());
        assertThat(back.tools()).singleElement().satisfies(tool -> assertThat(tool).containsEntry("type", "function"));
        assertThat(back.tools().get(0).get("function")).asString().contains("name=lookup").contains("required=[id]");
    }

    @Test
    void aBlankSystemMessageIsLeftOutAndAnUnknownRoleRefused() {
        assertThat(LangChain4jMessages.chatRequest(ModelRequest.ofMessages(List.of(Message.system(" "),
                Message.user("hi"))), "bot").messages()).containsExactly(UserMessage.from("hi"));
        assertThatThrownBy(() -> LangChain4jMessages.chatRequest(ModelRequest.ofMessages(List.of(
                new Message("developer", "{}"))), "bot")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bot: a LangChain4j chat model is sent system, user, assistant and tool "
                        + "messages; this request has a 'developer' message");
    }

    @Test
    void aToolConversationKeepsItsCallIdsResultsAndErrorsBothWays() {
        ToolCall lookup = new ToolCall("lookup", Map.of("id", "42"), "call_abc");
        ToolCall refund = new ToolCall("refund", Map.of("id", "42"), "call_def");
        ModelRequest request = ModelRequest.ofMessages(List.of(Message.user("Refund order 42"),
                Message.assistant("Looking.", List.of(lookup, refund)), Message.toolResult(lookup, "shipped"),
                Message.toolError(refund, "refunds are closed"))).withTools(List.of(LOOKUP));

        ChatRequest chat = LangChain4jMessages.chatRequest(request, "bot");

        assertThat(chat.messages().get(1)).isInstanceOfSatisfying(AiMessage.class, ai -> {
            assertThat(ai.text()).isEqualTo("Looking.");
            assertThat(ai.toolExecutionRequests()).extracting(r -> r.id() + " " + r.name() + " " + r.arguments())
                    .containsExactly("call_abc lookup {\"id\":\"42\"}", "call_def refund {\"id\":\"42\"}");
        });
        assertThat(chat.messages().get(2)).isInstanceOfSatisfying(ToolExecutionResultMessage.class, result -> {
            assertThat(result.id()).isEqualTo("call_abc");
            assertThat(result.toolName()).isEqualTo("lookup");
            assertThat(result.text()).isEqualTo("shipped");
            assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
        });
        assertThat(chat.messages().get(3)).isInstanceOfSatisfying(ToolExecutionResultMessage.class,
                result -> assertThat(result.isError()).isTrue());
        assertThat(chat.toolChoice()).as("no choice asked, none sent").isNull();
        // and back: what the engine's ChatModel receives from an AI service in the middle of its loop
        assertThat(LangChain4jMessages.modelRequest(chat).messages()).isEqualTo(List.of(Message.user(
                "Refund order 42"), Message.assistant("Looking.", List.of(lookup, refund)),
                Message.toolResult(new ToolCall("lookup", Map.of(), "call_abc"), "shipped"),
                Message.toolError(new ToolCall("refund", Map.of(), "call_def"), "refunds are closed")));
    }

    @Test
    void theToolChoiceTravelsBothWaysAndANamedToolIsTheOnlyOneOffered() {
        Map<String, Object> refund = Map.of("type", "function", "function", Map.of("name", "refund", "parameters",
                Map.of("type", "object", "properties", Map.of())));
        ModelRequest request = ModelRequest.ofMessages(List.of(Message.user("Refund order 42")))
                .withTools(List.of(LOOKUP, refund));

        for (String choice : List.of("auto", "none", "required")) {
            ChatRequest chat = LangChain4jMessages.chatRequest(request.withToolChoice(choice), "bot");
            assertThat(chat.toolChoice()).isEqualTo(ToolChoice.valueOf(choice.toUpperCase(java.util.Locale.ROOT)));
            assertThat(chat.toolSpecifications()).hasSize(2);
            assertThat(LangChain4jMessages.modelRequest(chat).toolChoice()).contains(choice);
        }
        ChatRequest named = LangChain4jMessages.chatRequest(request.withToolChoice("refund"), "bot");
        assertThat(named.toolChoice()).isEqualTo(ToolChoice.REQUIRED);
        assertThat(named.toolSpecifications()).extracting(ToolSpecification::name).containsExactly("refund");
        assertThatThrownBy(() -> LangChain4jMessages.chatRequest(request.withToolChoice("escalate"), "bot"))
                .hasMessage("bot: the request's tool choice is 'escalate', which is neither auto, none, required nor "
                        + "one of the tools it offers [lookup, refund]");
        assertThatThrownBy(() -> LangChain4jMessages.chatRequest(ModelRequest.ofPrompt("hi").withToolChoice("required"),
                "bot")).hasMessage("bot: the request's tool choice is 'required' but it offers no tool");
    }

    @Test
    void callsWithoutIdsAreNumberedOnFromTheConversationAndGivenIdsKept() {
        Completion completion = Completion.of("").withToolCalls(List.of(new ToolCall("lookup", Map.of()),
                new ToolCall("refund", Map.of(), "call_model"), new ToolCall("escalate", Map.of())));

        ChatResponse response = LangChain4jMessages.chatResponse(completion, "sim_small", 2);

        assertThat(response.aiMessage().toolExecutionRequests()).extracting(ToolExecutionRequest::id)
                .containsExactly("call_3", "call_model", "call_5");
        assertThat(LangChain4jMessages.toolCallsIn(ModelRequest.ofMessages(List.of(Message.user("a"),
                Message.assistant("", List.of(new ToolCall("a", Map.of()), new ToolCall("b", Map.of()))),
                Message.assistant("", List.of(new ToolCall("c", Map.of()))))))).isEqualTo(3);
    }

    @Test
    void aCompletionWithToolCallsBecomesAResponseAndBack() {
        Completion completion = Completion.of("").withToolCalls(List.of(new ToolCall("lookup", Map.of("id", "42")),
                new ToolCall("broken", Map.of("_raw", "{not json")))).withTokens(30, 8);

        ChatResponse response = LangChain4jMessages.chatResponse(completion, "sim_small", 0);
        Completion back = LangChain4jMessages.completion(response);

        assertThat(response.aiMessage().toolExecutionRequests()).extracting(r -> r.id() + " " + r.arguments())
                .containsExactly("call_1 {\"id\":\"42\"}", "call_2 {not json");
        assertThat(response.modelName()).isEqualTo("sim_small");
        assertThat(back.toolCalls()).isEqualTo(List.of(completion.toolCalls().get(0).withId("call_1"),
                completion.toolCalls().get(1).withId("call_2")));
        assertThat(back.tokensIn()).isEqualTo(30);
        assertThat(back.tokensOut()).isEqualTo(8);
    }
}
