package dev.agentarena.junit.engine.traces;

import java.io.Reader;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;

/**
 * Arize Phoenix's span export: its REST API's spans ({@code GET /v1/projects/<project>/spans}: a page
 * {@code {"data": [span, ...]}}), one span or one page per line ({@code .phoenix.jsonl}) or one page or list of spans
 * ({@code .phoenix.json}). A Phoenix span ({@code context.trace_id}, {@code context.span_id}, {@code parent_id},
 * ISO 8601 {@code start_time}/{@code end_time}, {@code status_code}, {@code span_kind}, OpenInference
 * {@code attributes}, flat or nested) is turned into OTLP JSON's shape and read by {@link OtlpJsonSpans}'s rules; the
 * span kind becomes {@code openinference.span.kind} when the attributes do not say it.
 */
final class PhoenixReader extends JsonRecordsReader {

    PhoenixReader(String file, Reader in, boolean document) {
        super(file, in, document);
    }

    /** A line holds one span or one page of them. */
    @Override
    void line(JsonNode node, int at) {
        if (node.has("data") && node.path("data").isArray()) {
            for (JsonNode span : node.path("data")) {
                record(span, at);
            }
        }
        else {
            record(node, at);
        }
    }

    @Override
    void record(JsonNode span, int at) {
        add(span, at);
    }

    private void add(JsonNode span, int at) {
        try {
            groups.add(OtlpJsonSpans.span(otlp(span)), at);
        }
        catch (BadSpan bad) {
            groups.bad(bad, file + ":" + at, file + ":" + at, at);
        }
    }

    /** A Phoenix span in OTLP JSON's shape. */
    static JsonNode otlp(JsonNode span) throws BadSpan {
        if (!span.isObject()) {
            return span;
        }
        ObjectNode node = Json.MAPPER.createObjectNode();
        String spanId = span.path("context").path("span_id").asText("");
        copy(node, "traceId", span.path("context").path("trace_id"));
        copy(node, "spanId", span.path("context").path("span_id"));
        copy(node, "parentSpanId", span.path("parent_id"));
        node.put("name", span.path("name").asText(""));
        node.put("startTimeUnixNano", nanos(span.path("start_time"), "start_time", spanId));
        node.put("endTimeUnixNano", nanos(span.path("end_time"), "end_time", spanId));
        ObjectNode status = node.putObject("status");
        status.put("code", "STATUS_CODE_" + span.path("status_code").asText("UNSET"));
        status.put("message", span.path("status_message").asText(""));
        ArrayNode attributes = node.putArray("attributes");
        flatten("", span.path("attributes"), attributes);
        if (span.path("span_kind").isTextual() && !hasKey(attributes, GenAiSpans.OPENINFERENCE_KIND)) {
            attribute(attributes, GenAiSpans.OPENINFERENCE_KIND, span.path("span_kind"));
        }
        ArrayNode events = node.putArray("events");
        for (JsonNode event : span.path("events")) {
            ObjectNode written = events.addObject();
            written.put("name", event.path("name").asText(""));
            written.put("timeUnixNano", nanos(event.path("timestamp"), "an event's timestamp", spanId));
            flatten("", event.path("attributes"), written.putArray("attributes"));
        }
        return node;
    }

    private static void copy(ObjectNode node, String field, JsonNode value) {
        if (value.isTextual()) {
            node.put(field, value.asText());
        }
    }

    private static String nanos(JsonNode time, String field, String spanId) throws BadSpan {
        if (time.isMissingNode() || time.isNull()) {
            return "0";
        }
        try {
            Instant instant = OffsetDateTime.parse(time.asText()).toInstant();
            return Long.toString(Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L),
                    instant.getNano()));
        }
        catch (DateTimeException | ArithmeticException e) {
            throw new BadSpan("", spanId.isEmpty() ? "(no span_id)" : TraceReader.shown(spanId), "span "
                    + TraceReader.shown(spanId) + ": " + field + " must be an ISO 8601 time with its offset, found '"
                    + TraceReader.shown(time.asText()) + "'");
        }
    }

    /** Nested attributes as OpenInference's flat keys: objects joined with dots, lists of objects indexed. */
    private static void flatten(String prefix, JsonNode value, ArrayNode attributes) {
        if (value.isObject()) {
            for (Map.Entry<String, JsonNode> entry : value.properties()) {
                flatten(prefix.isEmpty() ? entry.getKey() : prefix + "." + entry.getKey(), entry.getValue(),
                        attributes);
            }
        }
        else if (value.isArray() && value.size() > 0 && value.get(0).isObject()) {
            for (int i = 0; i < value.size(); i++) {
                flatten(prefix + "." + i, value.get(i), attributes);
            }
        }
        else if (!prefix.isEmpty() && !value.isNull() && !value.isMissingNode()) {
            attribute(attributes, prefix, value);
        }
    }

    private static void attribute(ArrayNode attributes, String key, JsonNode value) {
        ObjectNode entry = attributes.addObject();
        entry.put("key", key);
        ObjectNode written = entry.putObject("value");
        if (value.isTextual()) {
            written.put("stringValue", value.asText());
        }
        else if (value.isBoolean()) {
            written.put("boolValue", value.asBoolean());
        }
        else if (value.isIntegralNumber() && value.canConvertToLong()) {
            written.put("intValue", Long.toString(value.asLong()));
        }
        else if (value.isNumber()) {
            written.put("doubleValue", value.asDouble());
        }
        else {
            written.put("stringValue", Json.write(Json.MAPPER.convertValue(value, Object.class)));
        }
    }

    private static boolean hasKey(ArrayNode attributes, String key) {
        for (JsonNode entry : attributes) {
            if (entry.path("key").asText().equals(key)) {
                return true;
            }
        }
        return false;
    }
}
