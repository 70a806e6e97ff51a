package dev.agentarena.junit.engine.traces;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Trajectory;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * The one mapping from GenAI spans to what the engine knows: tool calls, retrieved passages, model steps, and the
 * conversation's input and final answer. It reads the OpenTelemetry GenAI semantic conventions
 * ({@code gen_ai.operation.name}, {@code gen_ai.input.messages}/{@code output.messages}, the older
 * {@code gen_ai.content.prompt}/{@code completion} events), Spring AI's observation attributes
 * ({@code spring.ai.kind}, {@code spring.ai.tool.call.*}, {@code db.vector.query.*}) and OpenInference's
 * ({@code openinference.span.kind}, {@code input.value}, {@code llm.*_messages.*}, {@code retrieval.documents.*},
 * {@code tool.*}).
 *
 * <p>Invariant: every method is a pure function of the spans, reads them in start order (ties in the given order),
 * and never throws on a span's content: what it cannot read is left out, never guessed.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class GenAiSpans {

    static final String OPENINFERENCE_KIND = "openinference.span.kind";
    static final String SPRING_AI_KIND = "spring.ai.kind";
    static final String INPUT_VALUE = "input.value";
    static final String OUTPUT_VALUE = "output.value";
    static final String INPUT_MESSAGES = "gen_ai.input.messages";
    static final String OUTPUT_MESSAGES = "gen_ai.output.messages";

    private GenAiSpans() {
    }

    /** The tool executions ({@code execute_tool}, OpenInference {@code TOOL}, Spring AI {@code tool_call}). */
    public static List<ToolCall> toolCalls(List<TraceSpan> spans) {
        List<ToolCall> calls = new ArrayList<>();
        for (TraceSpan span : inStartOrder(spans)) {
            if (isTool(span)) {
                calls.add(call(span));
            }
        }
        return calls;
    }

    /**
     * The trajectory the spans record: a model step per model call (chat, text completion, OpenInference {@code LLM})
     * and a tool step per tool execution, in start order; each tool call is listed on the model step before it, as
     * the model asked for it. Tool calls before any model call hang on one model step of model {@code recorded}.
     */
    public static Trajectory trajectory(List<TraceSpan> spans) {
        List<Trajectory.Step> steps = new ArrayList<>();
        List<TraceSpan> ordered = inStartOrder(spans);
        for (int i = 0; i < ordered.size(); i++) {
            TraceSpan span = ordered.get(i);
            if (isModel(span)) {
                steps.add(new Trajectory.ModelStep(0, model(span), List.of(), outputOf(span).orElse(""),
                        calledUntilNextModel(ordered, i + 1),
                        number(span, "gen_ai.usage.input_tokens", "llm.token_count.prompt"),
                        number(span, "gen_ai.usage.output_tokens", "llm.token_count.completion"), 0,
                        span.duration(), true));
            }
            else if (isTool(span)) {
                if (steps.isEmpty()) {
                    steps.add(new Trajectory.ModelStep(0, "recorded", List.of(), "", calledUntilNextModel(ordered, i),
                            0, 0, 0, Duration.ZERO, true));
                }
                String result = text(span, "gen_ai.tool.call.result", "spring.ai.tool.call.result", OUTPUT_VALUE)
                        .map(GenAiSpans::unquoted).orElse("");
                String error = span.isError() ? (span.statusMessage().isEmpty() ? result : span.statusMessage())
                        : null;
                steps.add(new Trajectory.ToolStep(0, call(span), result, error, span.duration(), false));
            }
        }
        return Trajectory.of(steps);
    }

    /** The tool calls from a place in the spans up to the next model call. */
    private static List<ToolCall> calledUntilNextModel(List<TraceSpan> ordered, int from) {
        List<ToolCall> calls = new ArrayList<>();
        for (int j = from; j < ordered.size() && !isModel(ordered.get(j)); j++) {
            if (isTool(ordered.get(j))) {
                calls.add(call(ordered.get(j)));
            }
        }
        return calls;
    }

    /**
     * The passages the retrieval spans returned, ranked in order across spans: the GenAI conventions'
     * {@code gen_ai.retrieval.documents} (JSON, {@code id}, {@code score}, {@code content}), OpenInference's
     * {@code retrieval.documents.<i>.document.*}, Spring AI's {@code db.vector.query.response.documents}.
     */
    public static List<RetrievedPassage> passages(List<TraceSpan> spans) {
        List<RetrievedPassage> passages = new ArrayList<>();
        for (TraceSpan span : inStartOrder(spans)) {
            Map<String, Object> attributes = span.attributes();
            Object documents = attributes.containsKey("gen_ai.retrieval.documents")
                    ? attributes.get("gen_ai.retrieval.documents") : attributes.get("db.vector.query.response.documents");
            if (documents != null) {
                for (JsonNode document : documents(documents)) {
                    passage(document.path("id"), document.has("content") ? document.path("content")
                            : document.path("text"), document.path("score"), document.path("metadata"), passages);
                }
            }
            for (int i = 0; attributes.containsKey("retrieval.documents." + i + ".document.id")
                    || attributes.containsKey("retrieval.documents." + i + ".document.content"); i++) {
                String prefix = "retrieval.documents." + i + ".document.";
                passage(node(attributes.get(prefix + "id")), node(attributes.get(prefix + "content")),
                        node(attributes.get(prefix + "score")), parsed(attributes.get(prefix + "metadata")), passages);
            }
        }
        return passages;
    }

    /**
     * The conversation's input: the root span's ({@code input.value}, its first user message), else the first model
     * call's first user message; empty when no span records one.
     */
    public static Optional<String> inputText(List<TraceSpan> spans) {
        List<TraceSpan> ordered = inStartOrder(spans);
        for (TraceSpan span : ordered) {
            if (span.isRoot()) {
                Optional<String> input = inputOf(span);
                if (input.isPresent()) {
                    return input;
                }
            }
        }
        for (TraceSpan span : ordered) {
            if (isModel(span)) {
                Optional<String> input = inputOf(span);
                if (input.isPresent()) {
                    return input;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The final answer: the root span's output ({@code output.value}, its last assistant message), else the last
     * model call's answer that is not blank; empty when no span records one.
     */
    public static Optional<String> outputText(List<TraceSpan> spans) {
        List<TraceSpan> ordered = inStartOrder(spans);
        for (TraceSpan span : ordered) {
            if (span.isRoot()) {
                Optional<String> output = outputOf(span);
                if (output.isPresent()) {
                    return output;
                }
            }
        }
        for (int i = ordered.size() - 1; i >= 0; i--) {
            if (isModel(ordered.get(i))) {
                Optional<String> output = outputOf(ordered.get(i));
                if (output.isPresent()) {
                    return output;
                }
            }
        }
        return Optional.empty();
    }

    /** Whether the span is a call to a model. */
    static boolean isModel(TraceSpan span) {
        String operation = span.operationName().orElse("");
        String kind = String.valueOf(span.attributes().getOrDefault(OPENINFERENCE_KIND, ""));
        return operation.equals("chat") || operation.equals("text_completion") || operation.equals("generate_content")
                || kind.equalsIgnoreCase("LLM");
    }

    /** Whether the span is a tool's execution. */
    static boolean isTool(TraceSpan span) {
        return span.operationName().filter("execute_tool"::equals).isPresent()
                || "TOOL".equalsIgnoreCase(String.valueOf(span.attributes().get(OPENINFERENCE_KIND)))
                || "tool_call".equals(span.attributes().get(SPRING_AI_KIND));
    }

    private static ToolCall call(TraceSpan span) {
        String name = text(span, "gen_ai.tool.name", "spring.ai.tool.definition.name", "tool.name")
                .orElseGet(() -> span.name().startsWith("execute_tool ") ? span.name().substring(13) : span.name());
        Map<String, Object> arguments = new LinkedHashMap<>();
        Optional<String> written = text(span, "gen_ai.tool.call.arguments", "spring.ai.tool.call.arguments",
                "tool.parameters", INPUT_VALUE);
        if (written.isPresent()) {
            JsonNode parsed = parsed(written.get());
            if (parsed.isObject()) {
                parsed.properties().forEach(entry -> arguments.put(entry.getKey(),
                        Json.MAPPER.convertValue(entry.getValue(), Object.class)));
            }
            else if (!written.get().isBlank()) {
                arguments.put("input", written.get());
            }
        }
        String id = text(span, "gen_ai.tool.call.id", "tool_call.id").orElse("");
        return new ToolCall(name, arguments, id);
    }

    private static String model(TraceSpan span) {
        return text(span, "gen_ai.response.model", "gen_ai.request.model", "llm.model_name").orElse("recorded");
    }

    private static Optional<String> inputOf(TraceSpan span) {
        Optional<String> userText = text(span, "spring.ai.chat.client.user.text").filter(value -> !value.isBlank());
        if (userText.isPresent()) {
            return userText;
        }
        Optional<String> messages = text(span, INPUT_MESSAGES).flatMap(json -> message(parsed(json), "user", true));
        if (messages.isPresent()) {
            return messages;
        }
        for (int i = 0; span.attributes().containsKey("llm.input_messages." + i + ".message.role"); i++) {
            if ("user".equals(span.attributes().get("llm.input_messages." + i + ".message.role"))) {
                Optional<String> content = openInferenceContent(span, "llm.input_messages." + i + ".message.");
                if (content.isPresent()) {
                    return content;
                }
            }
        }
        Optional<String> prompt = event(span, "gen_ai.content.prompt", "gen_ai.prompt")
                .or(() -> event(span, "gen_ai.user.message", "content"));
        if (prompt.isPresent()) {
            JsonNode parsed = parsed(prompt.get());
            return parsed.isArray() ? message(parsed, "user", true).or(() -> prompt) : prompt;
        }
        return text(span, INPUT_VALUE).filter(value -> !value.isBlank());
    }

    private static Optional<String> outputOf(TraceSpan span) {
        Optional<String> messages = text(span, OUTPUT_MESSAGES)
                .flatMap(json -> message(parsed(json), "assistant", false));
        if (messages.isPresent()) {
            return messages;
        }
        Optional<String> last = Optional.empty();
        for (int i = 0; span.attributes().containsKey("llm.output_messages." + i + ".message.role")
                || span.attributes().containsKey("llm.output_messages." + i + ".message.content"); i++) {
            Optional<String> content = openInferenceContent(span, "llm.output_messages." + i + ".message.");
            if (content.isPresent()) {
                last = content;
            }
        }
        if (last.isPresent()) {
            return last;
        }
        Optional<String> completion = event(span, "gen_ai.content.completion", "gen_ai.completion");
        if (completion.isPresent()) {
            JsonNode parsed = parsed(completion.get());
            return parsed.isArray() ? message(parsed, "assistant", false).or(() -> completion) : completion;
        }
        return text(span, OUTPUT_VALUE).filter(value -> !value.isBlank());
    }

    /**
     * An OpenInference message's text: its {@code message.content}, else its text parts
     * ({@code message.contents.<j>.message_content.text} of type {@code text}) joined by new lines.
     */
    private static Optional<String> openInferenceContent(TraceSpan span, String message) {
        Optional<String> content = text(span, message + "content");
        if (content.isPresent()) {
            return content;
        }
        StringBuilder text = new StringBuilder();
        for (int j = 0; span.attributes().containsKey(message + "contents." + j + ".message_content.type"); j++) {
            String part = message + "contents." + j + ".message_content.";
            Object partText = span.attributes().get(part + "text");
            if ("text".equals(span.attributes().get(part + "type")) && partText != null) {
                text.append(text.isEmpty() ? "" : "\n").append(partText);
            }
        }
        return text.isEmpty() ? Optional.empty() : Optional.of(text.toString());
    }

    /**
     * The text of a role's first (or last) message of a GenAI messages value: {@code [{"role": "user", "parts":
     * [{"type": "text", "content": "..."}]}]}, or the older {@code {"role", "content"}}, its content a text or a list
     * of parts ({@code {"type": "text", "text": "..."}}, an image part left out).
     */
    private static Optional<String> message(JsonNode messages, String role, boolean first) {
        if (!messages.isArray()) {
            return Optional.empty();
        }
        String found = null;
        for (JsonNode message : messages) {
            if (!message.path("role").asText("").equals(role)) {
                continue;
            }
            StringBuilder text = new StringBuilder();
            if (message.path("content").isTextual()) {
                text.append(message.path("content").asText());
            }
            // the parts of the GenAI conventions, and a content list of text and image parts (OpenAI's, Anthropic's)
            for (JsonNode part : message.path("content").isArray() ? message.path("content") : message.path("parts")) {
                String type = part.path("type").asText("text");
                JsonNode partText = part.isTextual() ? part : part.path("content").isTextual() ? part.path("content")
                        : part.path("text");
                if ((type.equals("text") || type.equals("input_text") || type.equals("output_text"))
                        && partText.isTextual()) {
                    text.append(text.isEmpty() ? "" : "\n").append(partText.asText());
                }
            }
            if (!text.isEmpty()) {
                found = text.toString();
                if (first) {
                    break;
                }
            }
        }
        return Optional.ofNullable(found);
    }

    private static void passage(JsonNode id, JsonNode content, JsonNode score, JsonNode metadata,
            List<RetrievedPassage> passages) {
        String text = content.isValueNode() ? content.asText() : "";
        String passageId = id.isValueNode() && !id.asText().isBlank() ? id.asText()
                : "passage-" + (passages.size() + 1);
        RetrievedPassage passage = RetrievedPassage.of(passageId, text).withRank(passages.size() + 1);
        Double value = score.isNumber() ? Double.valueOf(score.asDouble()) : score.isTextual() ? parsedDouble(
                score.asText()) : null;
        if (value != null && Double.isFinite(value)) {
            passage = passage.withScore(value);
        }
        if (metadata.isObject() && !metadata.isEmpty()) {
            passage = passage.withSource(Json.MAPPER.convertValue(metadata, Map.class));
        }
        passages.add(passage);
    }

    private static Double parsedDouble(String text) {
        try {
            return Double.valueOf(text.strip());
        }
        catch (NumberFormatException e) {
            return null;
        }
    }

    /** A documents attribute as a list of objects: a JSON text, or a list of JSON texts. */
    private static List<JsonNode> documents(Object value) {
        List<JsonNode> documents = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (Object item : list) {
                JsonNode node = parsed(item);
                if (node.isObject()) {
                    documents.add(node);
                }
            }
            return documents;
        }
        JsonNode node = parsed(value);
        if (node.isArray()) {
            node.forEach(document -> {
                if (document.isObject()) {
                    documents.add(document);
                }
            });
        }
        return documents;
    }

    private static Optional<String> event(TraceSpan span, String name, String attribute) {
        for (TraceSpan.Event event : span.events()) {
            if (event.name().equals(name) && event.attributes().containsKey(attribute)) {
                Object value = event.attributes().get(attribute);
                return Optional.of(value instanceof List<?> list ? String.join("\n", list.stream()
                        .map(String::valueOf).toList()) : String.valueOf(value));
            }
        }
        return Optional.empty();
    }

    private static Optional<String> text(TraceSpan span, String... keys) {
        for (String key : keys) {
            Object value = span.attributes().get(key);
            if (value != null) {
                return Optional.of(String.valueOf(value));
            }
        }
        return Optional.empty();
    }

    /** A count, also when written as text (Micrometer's bridge writes every attribute as text); 0 when none. */
    private static long number(TraceSpan span, String... keys) {
        for (String key : keys) {
            Object value = span.attributes().get(key);
            if (value instanceof Number number) {
                return Math.max(0, number.longValue());
            }
            if (value instanceof String text) {
                try {
                    return Math.max(0, Long.parseLong(text.strip()));
                }
                catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    /** A tool's result as the model read it: a JSON string literal ({@code "shipped"}) as its text. */
    private static String unquoted(String result) {
        String trimmed = result.strip();
        if (trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\"")) {
            try {
                return Json.MAPPER.readTree(trimmed).asText();
            }
            catch (JsonProcessingException e) {
                return result;
            }
        }
        return result;
    }

    /** A value as JSON: a text parsed when it is JSON, a missing node when it is not. */
    private static JsonNode parsed(Object value) {
        if (value instanceof String text) {
            String trimmed = text.strip();
            if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
                try {
                    return Json.MAPPER.readTree(trimmed);
                }
                catch (JsonProcessingException e) {
                    return Json.MAPPER.missingNode();
                }
            }
            return Json.MAPPER.missingNode();
        }
        return value == null ? Json.MAPPER.missingNode() : Json.MAPPER.valueToTree(value);
    }

    private static JsonNode node(Object value) {
        return value == null ? Json.MAPPER.missingNode() : Json.MAPPER.valueToTree(value);
    }

    private static List<TraceSpan> inStartOrder(List<TraceSpan> spans) {
        List<TraceSpan> ordered = new ArrayList<>(spans);
        ordered.sort(Comparator.comparingLong(TraceSpan::startEpochNanos));
        return ordered;
    }
}
