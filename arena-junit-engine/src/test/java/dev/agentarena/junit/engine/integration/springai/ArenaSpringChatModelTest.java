package dev.agentarena.junit.engine.integration.springai;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.ToolCallAdvisor;
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

/**
 * The engine's Spring AI ChatModel runs the tool loop as the chat models of the Spring AI on the class path do (1.x:
 * the model; 2.x: the ChatClient), and no further than they do.
 */
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

        @Tool(description = "Prints a label, but the printer is offline")
        public String broken(String id) {
            ran.add("broken " + id);
            throw new IllegalStateException("the label printer is offline");
        }

        @Tool(description = "Prints a label", returnDirect = true)
        public String label(String id) {
            ran.add("label " + id);
            return "label for " + id;
        }
    }

    /** A model that asks for this tool once, then answers with what it was sent last. */
    private ArenaSpringChatModel askingFor(String tool) {
        return new ArenaSpringChatModel("bot", asking(tool), true);
    }

    private Function<ModelRequest, Completion> asking(String tool) {
        return request -> {
            sent.add(request);
            if (request.messages().stream().noneMatch(Message::isToolResult)) {
                return Completion.of("").withToolCalls(List.of(ToolCall.of(tool, Map.of("id", "42"))));
            }
            return Completion.of("Answer: " + request.messages().get(request.messages().size() - 1).content());
        };
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
        assertThat(sent.get(0).tools()).hasSize(3);
    }

    @Test
    void aToolThatReturnsDirectlyEndsTheLoopWithItsResult() {
        ChatResponse response = askingFor("label").call(prompt(null));

        assertThat(response.getResult().getOutput().getText()).isEqualTo("\"label for 42\"");
        assertThat(ran).containsExactly("label 42");
        assertThat(sent).hasSize(1);
    }

    @Test
    void asOnSpringAi2TheModelAnswersWithItsToolCallsAndRunsNoTool() {
        ArenaSpringChatModel model = new ArenaSpringChatModel("bot", asking("lookup"), false);

        ChatResponse response = model.call(prompt(null));

        assertThat(response.getResult().getOutput().getToolCalls()).singleElement()
                .satisfies(call -> assertThat(call.id() + " " + call.name()).isEqualTo("call_1 lookup"));
        assertThat(ran).isEmpty();
        assertThat(sent).hasSize(1);
    }

    @Test
    void asOnSpringAi2TheClientsToolLoopRunsTheToolsAndOneThatThrewIsSentAsAnError() {
        // Spring AI 2's ChatClient runs the loop in its tool-calling advisor; 1.1's ToolCallAdvisor is the same loop
        ArenaSpringChatModel model = new ArenaSpringChatModel("bot", request -> {
            sent.add(request);
            return request.messages().stream().noneMatch(Message::isToolResult)
                    ? Completion.of("").withToolCalls(List.of(ToolCall.of("lookup", Map.of("id", "42")),
                            ToolCall.of("broken", Map.of("id", "42"))))
                    : Completion.of("done");
        }, false);
        ChatClient client = ChatClient.builder(model).defaultAdvisors(new WatchingToolsAdvisor(model),
                ToolCallAdvisor.builder().advisorOrder(WatchingToolsAdvisor.ORDER + 50).build()).build();

        String answer = client.prompt("Order 42?").tools(new Tools()).call().content();

        assertThat(answer).isEqualTo("done");
        assertThat(ran).containsExactly("lookup 42", "broken 42");
        assertThat(sent).hasSize(2);
        assertThat(sent.get(1).newMessages()).containsExactly(
                Message.toolResult(new ToolCall("lookup", Map.of(), "call_1"), "\"shipped\""),
                Message.toolError(new ToolCall("broken", Map.of(), "call_2"), "the label printer is offline"));
    }

    @Test
    void callsSharingAnIdAreMarkedFailedOneByOneAndTurnByTurn() {
        // a local server gives every call the id call_0: one answer asks for two tools, the next turn for one more
        ArenaSpringChatModel model = new ArenaSpringChatModel("bot", request -> {
            sent.add(request);
            long results = request.messages().stream().filter(Message::isToolResult).count();
            return results == 0 ? Completion.of("").withToolCalls(List.of(
                            new ToolCall("broken", Map.of("id", "1"), "call_0"),
                            new ToolCall("lookup", Map.of("id", "2"), "call_0")))
                    : results == 2 ? Completion.of("").withToolCalls(List.of(
                            new ToolCall("lookup", Map.of("id", "3"), "call_0")))
                    : Completion.of("done");
        }, true);

        model.call(prompt(null));

        assertThat(ran).containsExactly("broken 1", "lookup 2", "lookup 3");
        assertThat(sent).hasSize(3);
        assertThat(sent.get(2).messages()).filteredOn(Message::isToolResult).containsExactly(
                Message.toolError(new ToolCall("broken", Map.of(), "call_0"), "the label printer is offline"),
                Message.toolResult(new ToolCall("lookup", Map.of(), "call_0"), "\"shipped\""),
                Message.toolResult(new ToolCall("lookup", Map.of(), "call_0"), "\"shipped\""));
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
