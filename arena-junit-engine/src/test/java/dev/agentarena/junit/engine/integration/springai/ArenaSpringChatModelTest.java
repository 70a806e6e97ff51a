package dev.agentarena.junit.engine.integration.springai;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.ai.tool.annotation.Tool;

import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

/** The engine's Spring AI ChatModel runs the tool loop as Spring AI's chat models do, and no further than they do. */
class ArenaSpringChatModelTest {

    private final List<ModelRequest> sent = new CopyOnWriteArrayList<>();
    private final List<String> ran = new CopyOnWriteArrayList<>();

    /** Tools of the app, one of which answers the user directly. */
    public class Tools {

        @Tool(description = "Looks up an order")
        public String lookup(String id) {
            ran.add("lookup " + id);
            return "shipped";
        }

        @Tool(description = "Prints a label", returnDirect = true)
        public String label(String id) {
            ran.add("label " + id);
            return "label for " + id;
        }
    }

    /** A model that asks for this tool once, then answers with what it was sent last. */
    private ArenaSpringChatModel askingFor(String tool) {
        return new ArenaSpringChatModel("bot", request -> {
            sent.add(request);
            if (request.messages().stream().noneMatch(Message::isToolResult)) {
                return Completion.of("").withToolCalls(List.of(ToolCall.of(tool, Map.of("id", "42"))));
            }
            return Completion.of("Answer: " + request.messages().get(request.messages().size() - 1).content());
        });
    }

    private Prompt prompt(Boolean internalExecution) {
        return new Prompt(List.of(new UserMessage("Order 42?")), ToolCallingChatOptions.builder()
                .toolCallbacks(ToolCallbacks.from(new Tools())).internalToolExecutionEnabled(internalExecution)
                .build());
    }

    @Test
    void theLoopRunsTheToolAndSendsItsResultBackUntilTheModelAnswers() {
        ChatResponse response = askingFor("lookup").call(prompt(null));

        assertThat(response.getResult().getOutput().getText()).isEqualTo("Answer: \"shipped\"");
        assertThat(ran).containsExactly("lookup 42");
        assertThat(sent).hasSize(2);
        assertThat(sent.get(1).newMessages()).containsExactly(Message.toolResult(new ToolCall("lookup", Map.of(),
                "call_1"), "\"shipped\""));
        assertThat(sent.get(0).tools()).hasSize(2);
    }

    @Test
    void aToolThatReturnsDirectlyEndsTheLoopWithItsResult() {
        ChatResponse response = askingFor("label").call(prompt(null));

        assertThat(response.getResult().getOutput().getText()).isEqualTo("\"label for 42\"");
        assertThat(ran).containsExactly("label 42");
        assertThat(sent).hasSize(1);
    }

    @Test
    void withInternalExecutionOffTheToolCallsComeBackAndNoToolRuns() {
        ChatResponse response = askingFor("lookup").call(prompt(false));

        assertThat(response.getResult().getOutput().getToolCalls()).singleElement()
                .satisfies(call -> assertThat(call.id() + " " + call.name()).isEqualTo("call_1 lookup"));
        assertThat(ran).isEmpty();
        assertThat(sent).hasSize(1);
    }
}
