package dev.agentarena.junit.engine.traces;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * Langfuse's exports, one record or one page ({@code {"data": [...], "meta": {...}}}) per line
 * ({@code .langfuse.jsonl}), or records, pages and lists one after another ({@code .langfuse.json}), in two shapes:
 * <ul>
 * <li>a trace with its observations ({@code GET /api/public/traces/<id>}'s {@code TraceWithFullDetails}: {@code id},
 * {@code timestamp}, {@code input}, {@code output}, {@code sessionId}, {@code userId}, {@code observations}), whole in
 * its record, so read at once: the trace is a root span named by its id;</li>
 * <li>observations on their own, each naming its {@code traceId} ({@code GET /api/public/v2/observations}, the only
 * read API of Langfuse v4, whose input and output are JSON text, and the older {@code GET /api/public/observations}),
 * grouped into traces like OTLP spans: an observation without a parent ({@code parentObservationId} null, or
 * {@code isRootObservation}) is a root and names the case by its trace id.</li>
 * </ul>
 * An observation becomes a span in the GenAI conventions by its {@code type}: {@code GENERATION} a {@code chat}
 * span (its {@code model}, {@code usageDetails} or {@code usage} tokens, {@code input} and {@code output} messages),
 * {@code TOOL} an {@code execute_tool} span, {@code RETRIEVER} a {@code retrieval} span with its documents,
 * {@code AGENT} {@code invoke_agent}, {@code EMBEDDING} {@code embeddings}; an observation of {@code level}
 * {@code ERROR} failed. Langfuse's ids are not OTLP's unless its SDK is OpenTelemetry's: a span's ids are hex digests
 * of them. An observation listed twice is read once; two with one id and different content are an error.
 */
final class LangfuseReader extends JsonRecordsReader {

    LangfuseReader(String file, Reader in, boolean document) {
        super(file, in, document);
    }

    @Override
    void record(JsonNode record, int at) {
        if (record.isObject() && record.has("traceId")) {
            observation(record, at);
        }
        else {
            trace(record, at);
        }
    }

    private void trace(JsonNode trace, int at) {
        String id = trace.path("id").asText("");
        if (!trace.isObject() || id.isBlank()) {
            groups.unreadable(file + ":" + at, file + ":" + at + ": a Langfuse trace needs an 'id'"
                    + (trace.isObject() ? " (an observation, its 'traceId')" : ", found no object"), at);
            return;
        }
        try {
            groups.whole(TraceCases.read(hex(id, 16), spans(trace, id), at));
        }
        catch (BadSpan bad) {
            groups.unreadable(id, file + ":" + at + ": " + bad.getMessage(), at);
        }
    }

    /** An observation of a flat list, into its trace's group. */
    private void observation(JsonNode observation, int at) {
        String traceId = observation.path("traceId").asText("");
        String name = "observation " + TraceReader.shown(observation.path("id").asText(""));
        if (traceId.isBlank()) {
            groups.unreadable(file + ":" + at, file + ":" + at + ": " + name + " has no traceId: an observation "
                    + "outside a trace is not read as a case", at);
            return;
        }
        try {
            boolean root = observation.path("isRootObservation").asBoolean(false)
                    || observation.path("parentObservationId").asText("").isEmpty();
            groups.add(span(observation, hex(traceId, 16), root ? "" : null, traceId, -1), at);
        }
        catch (BadSpan bad) {
            groups.bad(bad, file + ":" + at, file + ":" + at, at);
        }
    }

    /** A trace record's spans: the trace itself as the root, then its observations in the record's order. */
    static List<TraceSpan> spans(JsonNode trace, String id) throws BadSpan {
        String traceId = hex(id, 16);
        String rootId = hex("trace:" + id, 8);
        long start = nanos(trace.path("timestamp"), "trace " + TraceReader.shown(id), 0);
        long end = start;
        List<TraceSpan> spans = new ArrayList<>();
        Map<String, TraceSpan> byId = new HashMap<>();
        for (JsonNode observation : trace.path("observations")) {
            if (observation.isObject()) {
                TraceSpan span = span(observation, traceId, rootId, id, start);
                // an observation without its id (the API always gives one) is never taken for another
                TraceSpan earlier = observation.path("id").asText("").isBlank() ? null
                        : byId.putIfAbsent(span.spanId(), span);
                if (earlier != null && !earlier.equals(span)) {
                    throw new BadSpan(traceId, span.spanId(), "observation " + TraceReader.shown(observation
                            .path("id").asText("")) + " comes twice in trace " + TraceReader.shown(id)
                            + " with different content; an observation id is unique in its trace");
                }
                if (earlier == null) {
                    end = Math.max(end, span.endEpochNanos());
                    spans.add(span);
                }
            }
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put(TraceCases.CASE_ID, id);
        conversation(root, trace);
        putText(root, "session.id", trace.path("sessionId"));
        putText(root, "user.id", trace.path("userId"));
        spans.add(0, new TraceSpan(traceId, rootId, "", trace.path("name").asText("trace"), TraceSpan.Kind.SERVER,
                start, Math.max(start, end), TraceSpan.Status.UNSET, "", root, List.of()));
        return spans;
    }

    /**
     * One observation as a span of a trace.
     *
     * @param parentOfTop the parent of an observation without {@code parentObservationId}: the trace's root span;
     *     empty when the observation is a root itself, {@code null} when it is not (a flat list's)
     * @param langfuseTraceId the Langfuse trace id, naming the case on a root observation
     * @param otherwiseStart the start of an observation without {@code startTime}, or -1 when it must have one
     */
    private static TraceSpan span(JsonNode observation, String traceId, String parentOfTop, String langfuseTraceId,
            long otherwiseStart) throws BadSpan {
        String name = "observation " + TraceReader.shown(observation.path("id").asText(""));
        if (otherwiseStart < 0 && (observation.path("startTime").isMissingNode()
                || observation.path("startTime").isNull())) {
            throw new BadSpan(traceId, name, name + " of trace " + TraceReader.shown(langfuseTraceId)
                    + " has no startTime");
        }
        long from;
        long to;
        try {
            from = nanos(observation.path("startTime"), name, otherwiseStart);
            to = nanos(observation.path("endTime"), name, from);
        }
        catch (BadSpan bad) {
            throw new BadSpan(traceId, name, bad.getMessage());
        }
        String parent = observation.path("parentObservationId").asText("");
        String parentId = parentOfTop == null ? hex(parent, 8) : parentOfTop.isEmpty() ? ""
                : parent.isEmpty() ? parentOfTop : hex(parent, 8);
        Map<String, Object> attributes = attributes(observation);
        if (parentId.isEmpty()) {
            attributes.put(TraceCases.CASE_ID, langfuseTraceId);
            putText(attributes, "session.id", observation.path("sessionId"));
            putText(attributes, "user.id", observation.path("userId"));
        }
        boolean error = observation.path("level").asText("").equals("ERROR");
        try {
            return new TraceSpan(traceId, hex(observation.path("id").asText(name), 8), parentId,
                    observation.path("name").asText(""), TraceSpan.Kind.INTERNAL, from, to, error
                            ? TraceSpan.Status.ERROR : TraceSpan.Status.UNSET,
                    observation.path("statusMessage").asText(""), attributes, List.of());
        }
        catch (IllegalArgumentException e) {
            throw new BadSpan(traceId, name, "trace " + TraceReader.shown(langfuseTraceId) + ", " + name + ": "
                    + e.getMessage());
        }
    }

    private static Map<String, Object> attributes(JsonNode observation) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        String type = observation.path("type").asText("SPAN");
        JsonNode input = io(observation.path("input"));
        JsonNode output = io(observation.path("output"));
        switch (type) {
            case "GENERATION" -> {
                attributes.put(TraceSpan.OPERATION_NAME, "chat");
                putText(attributes, "gen_ai.request.model", observation.path("model"));
                tokens(observation, attributes);
                attributes.put(GenAiSpans.INPUT_MESSAGES, Json.write(messages(input, "user")));
                attributes.put(GenAiSpans.OUTPUT_MESSAGES, Json.write(messages(output, "assistant")));
            }
            case "TOOL" -> {
                attributes.put(TraceSpan.OPERATION_NAME, "execute_tool");
                putText(attributes, "gen_ai.tool.name", observation.path("name"));
                putText(attributes, "gen_ai.tool.call.arguments", input);
                putText(attributes, "gen_ai.tool.call.result", output);
            }
            case "RETRIEVER" -> {
                attributes.put(TraceSpan.OPERATION_NAME, "retrieval");
                attributes.put("gen_ai.retrieval.documents", documents(output).toString());
                putText(attributes, GenAiSpans.INPUT_VALUE, input);
            }
            case "AGENT" -> {
                attributes.put(TraceSpan.OPERATION_NAME, "invoke_agent");
                putText(attributes, "gen_ai.agent.name", observation.path("name"));
                conversation(attributes, observation);
            }
            case "EMBEDDING" -> {
                attributes.put(TraceSpan.OPERATION_NAME, "embeddings");
                putText(attributes, "gen_ai.request.model", observation.path("model"));
                tokens(observation, attributes);
                putText(attributes, GenAiSpans.INPUT_VALUE, input);
            }
            default -> conversation(attributes, observation);
        }
        attributes.put("langfuse.observation.type", type);
        return attributes;
    }

    /**
     * A trace's or a span's input and output: as {@code input.value}/{@code output.value} text, and as GenAI messages
     * when they are chat messages, so that the conversation's first question and last answer are read from them.
     */
    private static void conversation(Map<String, Object> attributes, JsonNode record) {
        JsonNode input = io(record.path("input"));
        JsonNode output = io(record.path("output"));
        putText(attributes, GenAiSpans.INPUT_VALUE, input);
        putText(attributes, GenAiSpans.OUTPUT_VALUE, output);
        if (isChat(input)) {
            attributes.put(GenAiSpans.INPUT_MESSAGES, Json.write(messages(input, "user")));
        }
        if (isChat(output)) {
            attributes.put(GenAiSpans.OUTPUT_MESSAGES, Json.write(messages(output, "assistant")));
        }
    }

    private static boolean isChat(JsonNode value) {
        return value.isArray() && value.size() > 0 && value.get(0).has("role") || value.isObject()
                && (value.has("role") && value.has("content") || value.path("messages").isArray());
    }

    /** The input and output tokens of {@code usageDetails}, else of the deprecated {@code usage}. */
    private static void tokens(JsonNode observation, Map<String, Object> attributes) {
        for (String[] names : new String[][] {{"input", "gen_ai.usage.input_tokens"},
                {"output", "gen_ai.usage.output_tokens"}}) {
            JsonNode count = observation.path("usageDetails").path(names[0]);
            if (!count.canConvertToLong()) {
                count = observation.path("usage").path(names[0]);
            }
            if (count.isNumber() && count.canConvertToLong()) {
                attributes.put(names[1], count.asLong());
            }
        }
    }

    /** A retriever's output documents as the GenAI conventions' {@code gen_ai.retrieval.documents}. */
    private static ArrayNode documents(JsonNode output) {
        JsonNode documents = output.isArray() ? output : output.path("documents");
        ArrayNode written = Json.MAPPER.createArrayNode();
        int index = 0;
        for (JsonNode document : documents) {
            index++;
            ObjectNode passage = written.addObject();
            JsonNode docId = document.hasNonNull("id") ? document.path("id") : document.path("metadata").path("id");
            passage.put("id", docId.isValueNode() && !docId.isNull() ? docId.asText() : "passage-" + index);
            passage.put("content", document.isTextual() ? document.asText() : firstText(document, "pageContent",
                    "page_content", "content", "text"));
            JsonNode score = document.path("score").isNumber() ? document.path("score")
                    : document.path("metadata").path("score");
            if (score.isNumber()) {
                passage.put("score", score.asDouble());
            }
            if (document.path("metadata").isObject()) {
                passage.set("metadata", document.path("metadata"));
            }
        }
        return written;
    }

    private static String firstText(JsonNode document, String... fields) {
        for (String field : fields) {
            if (document.path(field).isTextual()) {
                return document.path(field).asText();
            }
        }
        return "";
    }

    /** A Langfuse input or output as GenAI messages: a list of {role, content} as it is, text as one message. */
    private static JsonNode messages(JsonNode value, String role) {
        if (value.isArray()) {
            return value;
        }
        if (value.isObject() && value.has("role")) {
            return Json.MAPPER.createArrayNode().add(value);
        }
        if (value.isObject() && value.path("messages").isArray()) {
            return value.path("messages");
        }
        ArrayNode one = Json.MAPPER.createArrayNode();
        if (!value.isMissingNode() && !value.isNull()) {
            one.addObject().put("role", role).put("content", value.isTextual() ? value.asText()
                    : value.toString());
        }
        return one;
    }

    /**
     * An input or output as its JSON: Langfuse v4's API serves them as JSON text, its older API as JSON; a text that
     * is not a JSON object or list is a text.
     */
    private static JsonNode io(JsonNode value) {
        if (value.isTextual()) {
            String text = value.asText().strip();
            if (text.startsWith("{") || text.startsWith("[")) {
                try {
                    return Json.MAPPER.readTree(text);
                }
                catch (JsonProcessingException e) {
                    return value;
                }
            }
        }
        return value;
    }

    private static void putText(Map<String, Object> attributes, String key, JsonNode value) {
        if (value.isTextual()) {
            attributes.put(key, value.asText());
        }
        else if (!value.isMissingNode() && !value.isNull()) {
            attributes.put(key, value.toString());
        }
    }

    private static long nanos(JsonNode time, String what, long otherwise) throws BadSpan {
        if (time.isMissingNode() || time.isNull()) {
            return otherwise;
        }
        try {
            Instant instant = OffsetDateTime.parse(time.asText()).toInstant();
            return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
        }
        catch (DateTimeException | ArithmeticException e) {
            throw new BadSpan("", what, what + ": the time must be ISO 8601 with its offset, found '"
                    + TraceReader.shown(time.asText()) + "'");
        }
    }

    /** An id as OTLP hex of this many bytes: a SHA-256 digest of the Langfuse id (its own when it already fits). */
    static String hex(String id, int bytes) {
        if (OtlpJsonSpans.isHex(id, bytes * 2)) {
            return id.toLowerCase(Locale.ROOT);
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, bytes);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
