package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.integration.LangChain4jAgentFixture;
import dev.agentarena.junit.engine.fixtures.integration.SupportAgentScript;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;

/**
 * A LangChain4j AI service with {@code @Tool} methods runs its whole loop through the engine's {@code ChatModel}: its
 * tools run in the app, every model call carries the conversation so far (call ids, results, errors), and the final
 * answer is what is scored. Against a model of the engine ({@code ModelClient}) and a LangChain4j {@code ChatModel} of
 * the team's, which the engine sends the tool conversation.
 */
class LangChain4jAgentEngineTest {

    @TempDir
    Path output;

    @BeforeEach
    void reset() {
        SupportAgentScript.reset();
    }

    @Test
    void anAiServiceRunsItsToolLoopThroughTheEngineAndItsFinalAnswerIsScored() {
        EngineRun run = new EngineRun(output).execute(LangChain4jAgentFixture.class);

        for (String model : List.of("scripted", "lc4j-scripted")) {
            assertThat(run.lines()).filteredOn(l -> l.get("model").asText().equals(model))
                    .extracting(l -> l.get("case_id").asText() + " " + l.get("status").asText() + " "
                            + l.get("output").asText())
                    .as(model).containsExactlyInAnyOrder(
                            "refund passed Done: refunded 30 EUR for order 42",
                            "blocked passed Sorry: order 13 is past the refund window, not refundable");
        }
        // the tools ran in the app, once per call the model asked for: two cases, two models
        assertThat(SupportAgentScript.RAN).containsExactlyInAnyOrder("lookupOrder 42", "refund 42", "lookupOrder 13",
                "refund 13", "lookupOrder 42", "refund 42", "lookupOrder 13", "refund 13");
        JsonNode line = run.lines().stream().filter(l -> l.get("model").asText().equals("scripted")).findFirst()
                .orElseThrow();
        assertThat(line.get("tokens_in").asLong()).as("three calls of 10 tokens").isEqualTo(30);
    }

    @Test
    void eachCallCarriesTheConversationSoFarWithCallIdsResultsAndErrors() {
        new EngineRun(output).execute(LangChain4jAgentFixture.class);

        List<ModelRequest> refund = requests("scripted Please refund order 42.");
        assertThat(refund).hasSize(3);
        assertThat(refund.get(0).messages()).containsExactly(Message.user("Please refund order 42."));
        assertThat(refund.get(0).tools()).extracting(tool -> String.valueOf(((Map<?, ?>) tool.get("function")).get("name")))
                .containsExactlyInAnyOrder("lookupOrder", "refund");
        // the model gave the lookup no id: the engine numbered it; the refund's own id is kept
        ToolCall lookup = new ToolCall("lookupOrder", Map.of("orderId", "42"), "call_1");
        ToolCall refundCall = new ToolCall("refund", Map.of("orderId", "42"), "call_refund");
        assertThat(refund.get(2).messages()).containsExactly(Message.user("Please refund order 42."),
                Message.assistant("", List.of(lookup)),
                Message.toolResult(lookup, "order 42: delivered, 30 EUR"),
                Message.assistant("Found it.", List.of(refundCall)),
                Message.toolResult(refundCall, "refunded 30 EUR for order 42"));
        assertThat(refund.get(2).newMessages()).containsExactly(Message.toolResult(refundCall,
                "refunded 30 EUR for order 42"));
        // a tool that threw: its message reaches the model as an error result
        Message blocked = last(requests("scripted Please refund order 13.")).messages().get(4);
        assertThat(blocked).isEqualTo(Message.toolError(new ToolCall("refund", Map.of(), "call_refund"),
                "order 13 is past the refund window, not refundable"));
    }

    @Test
    void theTeamsLangChain4jModelIsSentTheToolConversationWithItsOwnIds() {
        new EngineRun(output).execute(LangChain4jAgentFixture.class);

        List<ChatRequest> refund = chatRequests("lc4j-scripted Please refund order 42.");
        assertThat(refund).hasSize(3);
        assertThat(refund.get(0).toolSpecifications()).extracting(ToolSpecification::name)
                .containsExactlyInAnyOrder("lookupOrder", "refund");
        List<ChatMessage> last = refund.get(2).messages();
        assertThat(last).hasSize(5);
        assertThat(((AiMessage) last.get(1)).toolExecutionRequests()).extracting(ToolExecutionRequest::id,
                ToolExecutionRequest::name).containsExactly(org.assertj.core.groups.Tuple.tuple("lc_1",
                        "lookupOrder"));
        assertThat((ToolExecutionResultMessage) last.get(2)).satisfies(result -> {
            assertThat(result.id()).isEqualTo("lc_1");
            assertThat(result.toolName()).isEqualTo("lookupOrder");
            assertThat(result.text()).isEqualTo("order 42: delivered, 30 EUR");
        });
        assertThat(((ToolExecutionResultMessage) last.get(4)).id()).isEqualTo("lc_2");
        ToolExecutionResultMessage blocked = (ToolExecutionResultMessage) last(chatRequests(
                "lc4j-scripted Please refund order 13.")).messages().get(4);
        assertThat(blocked.isError()).isTrue();
        assertThat(blocked.text()).isEqualTo("order 13 is past the refund window, not refundable");
    }

    @Test
    void aLookupTheCaseFixesStaysInTheConversationTheServiceSendsNext() {
        EngineRun run = new EngineRun(output).execute(LangChain4jAgentFixture.HalfFixed.class);

        for (String model : List.of("scripted", "lc4j-scripted")) {
            // sent the fixed lookup and the refund's result, the model answers rather than refunding again
            assertThat(run.lines()).filteredOn(l -> l.get("model").asText().equals(model))
                    .extracting(l -> l.get("output").asText()).as(model)
                    .containsExactly("Done: refunded 30 EUR for order 42");
        }
        assertThat(SupportAgentScript.RAN).as("the lookup is the case's; the refund ran once per model")
                .containsExactly("refund 42", "refund 42");
        List<ChatMessage> last = last(chatRequests("lc4j-scripted Please refund order 42.")).messages();
        assertThat(last).hasSize(5);
        assertThat(((AiMessage) last.get(1)).toolExecutionRequests()).extracting(ToolExecutionRequest::name)
                .containsExactly("lookupOrder");
        assertThat(((ToolExecutionResultMessage) last.get(2)).text()).isEqualTo("order 42: lost in transit");
        assertThat(((ToolExecutionResultMessage) last.get(4)).text()).isEqualTo("refunded 30 EUR for order 42");
    }

    @SuppressWarnings("unchecked")
    private static List<ModelRequest> requests(String key) {
        return (List<ModelRequest>) (List<?>) SupportAgentScript.SENT.get(key);
    }

    @SuppressWarnings("unchecked")
    private static List<ChatRequest> chatRequests(String key) {
        return (List<ChatRequest>) (List<?>) SupportAgentScript.SENT.get(key);
    }

    private static <T> T last(List<T> list) {
        return list.get(list.size() - 1);
    }
}
