package dev.agentarena.junit.engine.traces;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Trajectory;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * The one mapping from GenAI spans: the semantic conventions (messages as JSON attributes, the older prompt and
 * completion events, execute_tool, retrieval), Spring AI's observations and OpenInference's attributes.
 */
class GenAiSpansTest {

    private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";

    @Test
    void semconvMessagesGiveTheFirstUserMessageAndTheLastAnswer() {
        List<TraceSpan> spans = List.of(
                span("r", "", 0, 100, Map.of("gen_ai.operation.name", "invoke_agent")),
                span("c1", "r", 1, 10, Map.of("gen_ai.operation.name", "chat", "gen_ai.input.messages",
                        "[{\"role\":\"system\",\"parts\":[{\"type\":\"text\",\"content\":\"Be brief.\"}]},"
                                + "{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"Hi there\"}]}]")),
                span("c2", "r", 20, 30, Map.of("gen_ai.operation.name", "chat", "gen_ai.output.messages",
                        "[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"Hello!\"}]}]")));

        assertThat(GenAiSpans.inputText(spans)).contains("Hi there");
        assertThat(GenAiSpans.outputText(spans)).contains("Hello!");
    }

    @Test
    void multimodalMessagesGiveTheirTextPartsAndLeaveTheImagesOut() {
        Map<String, Object> openInference = new LinkedHashMap<>();
        openInference.put("openinference.span.kind", "LLM");
        openInference.put("llm.input_messages.0.message.role", "user");
        openInference.put("llm.input_messages.0.message.contents.0.message_content.type", "image");
        openInference.put("llm.input_messages.0.message.contents.0.message_content.image.image.url", "https://x/a.jpg");
        openInference.put("llm.input_messages.0.message.contents.1.message_content.type", "text");
        openInference.put("llm.input_messages.0.message.contents.1.message_content.text", "What is this?");
        openInference.put("llm.output_messages.0.message.role", "assistant");
        openInference.put("llm.output_messages.0.message.contents.0.message_content.type", "text");
        openInference.put("llm.output_messages.0.message.contents.0.message_content.text", "A kettle.");
        TraceSpan contentLists = span("c", "", 0, 10, Map.of("gen_ai.operation.name", "chat",
                "gen_ai.input.messages", "[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Hi\"},"
                        + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"https://x/a.jpg\"}},"
                        + "{\"type\":\"text\",\"text\":\"there\"}]}]",
                "gen_ai.output.messages", "[{\"role\":\"assistant\",\"content\":[{\"type\":\"text\","
                        + "\"text\":\"Hello!\"}]}]"));

        assertThat(GenAiSpans.inputText(List.of(span("l", "", 0, 10, openInference)))).contains("What is this?");
        assertThat(GenAiSpans.outputText(List.of(span("l", "", 0, 10, openInference)))).contains("A kettle.");
        assertThat(GenAiSpans.inputText(List.of(contentLists))).contains("Hi\nthere");
        assertThat(GenAiSpans.outputText(List.of(contentLists))).contains("Hello!");
    }

    @Test
    void theOlderPromptAndCompletionEventsAreRead() {
        TraceSpan chat = new TraceSpan(TRACE, id("c"), "", "chat gpt-4o", TraceSpan.Kind.CLIENT, 0, 5,
                TraceSpan.Status.UNSET, "", Map.of("gen_ai.operation.name", "chat"), List.of(
                        new TraceSpan.Event("gen_ai.content.prompt", 1, Map.of("gen_ai.prompt", "What is 2+2?")),
                        new TraceSpan.Event("gen_ai.content.completion", 4, Map.of("gen_ai.completion",
                                List.of("4")))));

        assertThat(GenAiSpans.inputText(List.of(chat))).contains("What is 2+2?");
        assertThat(GenAiSpans.outputText(List.of(chat))).contains("4");
    }

    @Test
    void executeToolSpansAreToolCallsInStartOrderWithTheirResults() {
        List<TraceSpan> spans = List.of(
                span("t2", "r", 30, 40, Map.of("gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "refund",
                        "gen_ai.tool.call.arguments", "{\"order\":42}", "gen_ai.tool.call.id", "call_2")),
                span("c", "r", 0, 10, Map.of("gen_ai.operation.name", "chat", "gen_ai.request.model", "gpt-4o",
                        "gen_ai.usage.input_tokens", 12L)),
                span("t1", "r", 20, 25, Map.of("gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "lookup",
                        "gen_ai.tool.call.result", "shipped")));

        assertThat(GenAiSpans.toolCalls(spans)).containsExactly(new ToolCall("lookup", Map.of()),
                new ToolCall("refund", Map.of("order", 42), "call_2"));
        Trajectory trajectory = GenAiSpans.trajectory(spans);
        assertThat(trajectory.modelSteps()).singleElement().satisfies(step -> {
            assertThat(step.model()).isEqualTo("gpt-4o");
            assertThat(step.tokensIn()).isEqualTo(12);
            assertThat(step.toolCalls()).extracting(ToolCall::name).containsExactly("lookup", "refund");
        });
        assertThat(trajectory.toolSteps()).extracting(Trajectory.ToolStep::result).containsExactly("shipped", "");
    }

    @Test
    void springAiToolAndVectorStoreObservationsAreReadLikeTheConventions() {
        List<TraceSpan> spans = List.of(
                span("t", "", 0, 5, Map.of("gen_ai.operation.name", "framework", "spring.ai.kind", "tool_call",
                        "spring.ai.tool.definition.name", "weather", "spring.ai.tool.call.arguments",
                        "{\"city\":\"Paris\"}", "spring.ai.tool.call.result", "sunny")),
                span("v", "", 6, 9, Map.of("spring.ai.kind", "vector_store", "db.vector.query.response.documents",
                        "[{\"id\":\"d1\",\"text\":\"Paris is sunny.\",\"score\":0.8}]")));

        assertThat(GenAiSpans.toolCalls(spans)).containsExactly(new ToolCall("weather", Map.of("city", "Paris")));
        assertThat(GenAiSpans.trajectory(spans).toolSteps()).extracting(Trajectory.ToolStep::result)
                .containsExactly("sunny");
        assertThat(GenAiSpans.passages(spans)).containsExactly(RetrievedPassage.of("d1", "Paris is sunny.")
                .withRank(1).withScore(0.8));
    }

    @Test
    void openInferenceSpansGiveInputOutputToolsAndDocuments() {
        Map<String, Object> retriever = new LinkedHashMap<>();
        retriever.put("openinference.span.kind", "RETRIEVER");
        retriever.put("retrieval.documents.0.document.id", "doc-7");
        retriever.put("retrieval.documents.0.document.content", "Refunds take 30 days.");
        retriever.put("retrieval.documents.0.document.score", 0.9);
        retriever.put("retrieval.documents.0.document.metadata", "{\"source\":\"policy.md\"}");
        retriever.put("retrieval.documents.1.document.content", "no id here");
        List<TraceSpan> spans = List.of(
                span("r", "", 0, 100, Map.of("openinference.span.kind", "AGENT", "input.value", "Refund time?",
                        "output.value", "30 days.")),
                span("ret", "r", 1, 2, retriever),
                span("tool", "r", 3, 4, Map.of("openinference.span.kind", "TOOL", "tool.name", "refund_status",
                        "input.value", "order 7")));

        assertThat(GenAiSpans.inputText(spans)).contains("Refund time?");
        assertThat(GenAiSpans.outputText(spans)).contains("30 days.");
        assertThat(GenAiSpans.toolCalls(spans)).containsExactly(new ToolCall("refund_status",
                Map.of("input", "order 7")));
        assertThat(GenAiSpans.passages(spans)).containsExactly(
                RetrievedPassage.of("doc-7", "Refunds take 30 days.").withRank(1).withScore(0.9)
                        .withSource(Map.of("source", "policy.md")),
                RetrievedPassage.of("passage-2", "no id here").withRank(2));
    }

    @Test
    void micrometersTextValuesAreReadAsNumbersAndQuotedResultsAsText() {
        List<TraceSpan> spans = List.of(
                span("root", "", 0, 100, Map.of("spring.ai.kind", "chat_client", "spring.ai.chat.client.user.text",
                        "Where is 2210?")),
                span("c", "root", 1, 10, Map.of("gen_ai.operation.name", "chat", "gen_ai.usage.input_tokens", "122",
                        "gen_ai.input.messages", "[{\"role\":\"user\",\"parts\":[{\"type\":\"text\","
                                + "\"content\":\"Where is 2210?\\nContext: ...\"}]}]")),
                span("t", "root", 11, 12, Map.of("spring.ai.kind", "tool_call", "spring.ai.tool.definition.name",
                        "lookup_order", "spring.ai.tool.call.result", "\"Shipped on 2 May.\"")),
                span("v", "root", 13, 14, Map.of("retrieval.documents.0.document.id", "faq",
                        "retrieval.documents.0.document.score", "0.25")));

        assertThat(GenAiSpans.inputText(spans)).contains("Where is 2210?");
        assertThat(GenAiSpans.trajectory(spans).modelSteps().get(0).tokensIn()).isEqualTo(122);
        assertThat(GenAiSpans.trajectory(spans).toolSteps().get(0).result()).isEqualTo("Shipped on 2 May.");
        assertThat(GenAiSpans.passages(spans).get(0).score()).isEqualTo(0.25);
    }

    @Test
    void unreadableContentIsLeftOutNeverGuessed() {
        List<TraceSpan> spans = List.of(span("c", "", 0, 1, Map.of("gen_ai.operation.name", "chat",
                "gen_ai.input.messages", "[{\"role\": \"user\", \"parts\": [", "gen_ai.retrieval.documents", "{]")));

        assertThat(GenAiSpans.inputText(spans)).isEmpty();
        assertThat(GenAiSpans.outputText(spans)).isEmpty();
        assertThat(GenAiSpans.passages(spans)).isEmpty();
    }

    private static TraceSpan span(String name, String parent, long start, long end, Map<String, Object> attributes) {
        return new TraceSpan(TRACE, id(name), parent.isEmpty() ? "" : id(parent), name, TraceSpan.Kind.INTERNAL,
                start, end, TraceSpan.Status.UNSET, "", attributes, List.of());
    }

    /** A span id of 16 hex digits from a short name. */
    private static String id(String name) {
        return String.format("%016x", name.hashCode() & 0xffffffffL);
    }
}
