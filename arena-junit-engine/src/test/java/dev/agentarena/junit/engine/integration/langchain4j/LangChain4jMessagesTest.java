package dev.agentarena.junit.engine.integration.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
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
    void aBlankSystemMessageIsLeftOutAndAToolMessageRefused() {
        assertThat(LangChain4jMessages.chatRequest(ModelRequest.ofMessages(List.of(Message.system(" "),
                Message.user("hi"))), "bot").messages()).containsExactly(UserMessage.from("hi"));
        assertThatThrownBy(() -> LangChain4jMessages.chatRequest(ModelRequest.ofMessages(List.of(
                new Message("tool", "{}"))), "bot")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bot: a LangChain4j chat model is sent system, user and assistant messages");
    }

    @Test
    void aCompletionWithToolCallsBecomesAResponseAndBack() {
        Completion completion = Completion.of("").withToolCalls(List.of(new ToolCall("lookup", Map.of("id", "42")),
                new ToolCall("broken", Map.of("_raw", "{not json")))).withTokens(30, 8);

        ChatResponse response = LangChain4jMessages.chatResponse(completion, "sim_small");
        Completion back = LangChain4jMessages.completion(response);

        assertThat(response.aiMessage().toolExecutionRequests()).extracting(r -> r.id() + " " + r.arguments())
                .containsExactly("call_1 {\"id\":\"42\"}", "call_2 {not json");
        assertThat(response.modelName()).isEqualTo("sim_small");
        assertThat(back.toolCalls()).isEqualTo(completion.toolCalls());
        assertThat(back.tokensIn()).isEqualTo(30);
        assertThat(back.tokensOut()).isEqualTo(8);
    }
}
