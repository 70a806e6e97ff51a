package dev.agentarena.junit.engine.traces;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * Langfuse's trace export: a trace with its observations (its API's {@code GET /api/public/traces/<id>}: {@code id},
 * {@code input}, {@code output}, {@code sessionId}, {@code userId}, {@code observations} of type {@code GENERATION},
 * {@code SPAN}, {@code EVENT}, {@code TOOL}, {@code RETRIEVER}...), one trace per line ({@code .langfuse.jsonl}) or a
 * list of them ({@code .langfuse.json}, also a page {@code {"data": [...]}}, streamed). A trace is whole in its record,
 * so it needs no grouping: it becomes spans in the GenAI conventions (the trace a root span, a generation a
 * {@code chat} span, a tool an {@code execute_tool} span, a retriever a {@code retrieval} span with its documents),
 * and a case named by the Langfuse trace id. Langfuse's ids are not OTLP's: a span's ids are hex digests of them.
 */
final class LangfuseReader extends JsonRecordsReader {

    LangfuseReader(String file, Reader in, boolean document) {
        super(file, in, document);
    }

    @Override
    void record(JsonNode trace, int at) {
        trace(trace, at);
    }

    private void trace(JsonNode trace, int at) {
        String id = trace.path("id").asText("");
        if (!trace.isObject() || id.isBlank()) {
            groups.unreadable(file + ":" + at, file + ":" + at + ": a Langfuse trace needs an 'id'"
                    + (trace.isObject() ? "" : ", found no object"), at);
            return;
        }
        try {
            groups.whole(TraceCases.read(hex(id, 16), spans(trace, id), at));
        }
        catch (BadSpan bad) {
            groups.unreadable(id, file + ":" + at + ": " + bad.getMessage(), at);
        }
    }

    /** The trace's spans: the trace itself as the root, then its observations in the record's order. */
    static List<TraceSpan> spans(JsonNode trace, String id) throws BadSpan {
        String traceId = hex(id, 16);
        String rootId = hex("trace:" + id, 8);
        long start = nanos(trace.path("timestamp"), "trace " + TraceReader.shown(id), 0);
        List<ObjectNode> observations = new ArrayList<>();
        long end = start;
        for (JsonNode observation : trace.path("observations")) {
            if (observation.isObject()) {
                observations.add((ObjectNode) observation);
            }
        }
        List<TraceSpan> spans = new ArrayList<>();
        for (ObjectNode observation : observations) {
            String name = "observation " + TraceReader.shown(observation.path("id").asText(""));
            long from = nanos(observation.path("startTime"), name, start);
            long to = nanos(observation.path("endTime"), name, from);
            end = Math.max(end, to);
            String parent = observation.path("parentObservationId").asText("");
            Map<String, Object> attributes = attributes(observation);
            boolean error = observation.path("level").asText("").equals("ERROR");
            try {
                spans.add(new TraceSpan(traceId, hex(observation.path("id").asText(name), 8), parent.isEmpty()
                        ? rootId : hex(parent, 8), observation.path("name").asText(""), TraceSpan.Kind.INTERNAL, from,
                        to, error ? TraceSpan.Status.ERROR : TraceSpan.Status.UNSET,
                        observation.path("statusMessage").asText(""), attributes, List.of()));
            }
            catch (IllegalArgumentException e) {
                throw new BadSpan(traceId, name, "trace " + TraceReader.shown(id) + ", " + name + ": "
                        + e.getMessage());
            }
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put(TraceCases.CASE_ID, id);
        putText(root, GenAiSpans.INPUT_VALUE, trace.path("input"));
        putText(root, GenAiSpans.OUTPUT_VALUE, trace.path("output"));
        putText(root, "session.id", trace.path("sessionId"));
        putText(root, "user.id", trace.path("userId"));
        spans.add(0, new TraceSpan(traceId, rootId, "", trace.path("name").asText("trace"), TraceSpan.Kind.SERVER,
                start, Math.max(start, end), TraceSpan.Status.UNSET, "", root, List.of()));
        return spans;
    }

    private static Map<String, Object> attributes(JsonNode observation) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        String type = observation.path("type").asText("SPAN");
        switch (type) {
            case "GENERATION" -> {
                attributes.put(TraceSpan.OPERATION_NAME, "chat");
                putText(attributes, "gen_ai.request.model", observation.path("model"));
                JsonNode usage = observation.path("usageDetails").isObject() ? observation.path("usageDetails")
                        : observation.path("usage");
                if (usage.path("input").canConvertToLong()) {
                    attributes.put("gen_ai.usage.input_tokens", usage.path("input").asLong());
                }
                if (usage.path("output").canConvertToLong()) {
                    attributes.put("gen_ai.usage.output_tokens", usage.path("output").asLong());
                }
                attributes.put(GenAiSpans.INPUT_MESSAGES, Json.write(messages(observation.path("input"), "user")));
                attributes.put(GenAiSpans.OUTPUT_MESSAGES, Json.write(messages(observation.path("output"),
                        "assistant")));
            }
            case "TOOL" -> {
                attributes.put(TraceSpan.OPERATION_NAME, "execute_tool");
                putText(attributes, "gen_ai.tool.name", observation.path("name"));
                putText(attributes, "gen_ai.tool.call.arguments", observation.path("input"));
                putText(attributes, "gen_ai.tool.call.result", observation.path("output"));
            }
            case "RETRIEVER" -> {
                attributes.put(TraceSpan.OPERATION_NAME, "retrieval");
                JsonNode output = observation.path("output");
                JsonNode documents = output.isArray() ? output : output.path("documents");
                ArrayNode written = Json.MAPPER.createArrayNode();
                int index = 0;
                for (JsonNode document : documents) {
                    index++;
                    ObjectNode passage = written.addObject();
                    JsonNode docId = document.has("id") ? document.path("id") : document.path("metadata").path("id");
                    passage.put("id", docId.isValueNode() ? docId.asText() : "passage-" + index);
                    passage.put("content", document.isTextual() ? document.asText() : document.has("pageContent")
                            ? document.path("pageContent").asText() : document.has("content")
                                    ? document.path("content").asText() : document.path("text").asText(""));
                    if (document.path("score").isNumber()) {
                        passage.put("score", document.path("score").asDouble());
                    }
                    if (document.path("metadata").isObject()) {
                        passage.set("metadata", document.path("metadata"));
                    }
                }
                attributes.put("gen_ai.retrieval.documents", written.toString());
            }
            default -> putText(attributes, GenAiSpans.INPUT_VALUE, observation.path("input"));
        }
        attributes.put("langfuse.observation.type", type);
        return attributes;
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
