package dev.agentarena.junit.engine.traces;

import java.io.Reader;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;

/**
 * Arize Phoenix's span exports, one span or one page ({@code {"data": [...], "next_cursor": ...}}) per line
 * ({@code .phoenix.jsonl}), or pages and lists of spans one after another ({@code .phoenix.json}). Two of its REST
 * API's shapes are read: {@code GET /v1/projects/<project>/spans}'s Phoenix spans ({@code context.trace_id},
 * {@code context.span_id}, {@code parent_id}, ISO 8601 {@code start_time}/{@code end_time}, {@code span_kind},
 * {@code status_code}, OpenInference {@code attributes} with dotted keys or nested, {@code events}), and
 * {@code GET /v1/projects/<project>/spans/otlpv1}'s OTLP spans with proto field names ({@code trace_id},
 * {@code start_time_unix_nano}, {@code string_value}...). Both are put in OTLP JSON's shape and read by
 * {@link OtlpJsonSpans}'s rules; the span kind becomes {@code openinference.span.kind}.
 *
 * <p>Phoenix stores the OpenInference attributes that hold JSON text ({@code tool.parameters}, {@code metadata},
 * {@code document.metadata}, {@code llm.prompt_template.variables}) parsed, and its API serves them flattened like
 * the others ({@code tool.parameters.order_id}); they are joined back into the JSON text OpenInference defines.
 */
final class PhoenixReader extends JsonRecordsReader {

    /** How many levels of a flattened JSON attribute are joined back; a deeper key is kept as it is. */
    private static final int MAX_JOINED_DEPTH = 64;

    PhoenixReader(String file, Reader in, boolean document) {
        super(file, in, document);
    }

    @Override
    void record(JsonNode span, int at) {
        try {
            groups.add(OtlpJsonSpans.span(otlp(span)), at);
        }
        catch (BadSpan bad) {
            groups.bad(bad, file + ":" + at, file + ":" + at, at);
        }
    }

    /** A Phoenix span, or an OTLP span with proto field names, in OTLP JSON's shape. */
    static JsonNode otlp(JsonNode span) throws BadSpan {
        if (!span.isObject()) {
            return span;
        }
        return span.has("context") || !span.has("trace_id") ? phoenixSpan(span) : protoNamedSpan(span);
    }

    private static JsonNode phoenixSpan(JsonNode span) throws BadSpan {
        ObjectNode node = Json.MAPPER.createObjectNode();
        String spanId = span.path("context").path("span_id").asText("");
        String traceId = span.path("context").path("trace_id").asText("");
        // a bad time is an error of the span's trace, as in OTLP, when the trace id is one
        String badTrace = OtlpJsonSpans.isHex(traceId, 32) ? traceId.toLowerCase(Locale.ROOT) : "";
        copy(node, "traceId", span.path("context").path("trace_id"));
        copy(node, "spanId", span.path("context").path("span_id"));
        copy(node, "parentSpanId", span.path("parent_id"));
        node.put("name", span.path("name").asText(""));
        node.put("startTimeUnixNano", nanos(span.path("start_time"), "start_time", badTrace, spanId));
        node.put("endTimeUnixNano", nanos(span.path("end_time"), "end_time", badTrace, spanId));
        ObjectNode status = node.putObject("status");
        status.put("code", "STATUS_CODE_" + span.path("status_code").asText("UNSET"));
        status.put("message", span.path("status_message").asText(""));
        Map<String, JsonNode> attributes = new LinkedHashMap<>();
        flatten("", span.path("attributes"), attributes);
        if (span.path("span_kind").isTextual() && !attributes.containsKey(GenAiSpans.OPENINFERENCE_KIND)) {
            attributes.put(GenAiSpans.OPENINFERENCE_KIND, span.path("span_kind"));
        }
        write(joined(attributes), node.putArray("attributes"));
        ArrayNode events = node.putArray("events");
        for (JsonNode event : span.path("events")) {
            ObjectNode written = events.addObject();
            written.put("name", event.path("name").asText(""));
            written.put("timeUnixNano", nanos(event.path("timestamp"), "an event's timestamp", badTrace, spanId));
            Map<String, JsonNode> eventAttributes = new LinkedHashMap<>();
            flatten("", event.path("attributes"), eventAttributes);
            write(eventAttributes, written.putArray("attributes"));
        }
        return node;
    }

    /** Phoenix's {@code otlpv1} span: OTLP with the proto's field names, times as numbers, values snake_cased. */
    private static JsonNode protoNamedSpan(JsonNode span) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        copy(node, "traceId", span.path("trace_id"));
        copy(node, "spanId", span.path("span_id"));
        copy(node, "parentSpanId", span.path("parent_span_id"));
        node.put("name", span.path("name").asText(""));
        copyText(node, "kind", span.path("kind"));
        copyText(node, "startTimeUnixNano", span.path("start_time_unix_nano"));
        copyText(node, "endTimeUnixNano", span.path("end_time_unix_nano"));
        ObjectNode status = node.putObject("status");
        copyText(status, "code", span.path("status").path("code"));
        copy(status, "message", span.path("status").path("message"));
        write(joined(protoNamed(span.path("attributes"))), node.putArray("attributes"));
        ArrayNode events = node.putArray("events");
        for (JsonNode event : span.path("events")) {
            ObjectNode written = events.addObject();
            written.put("name", event.path("name").asText(""));
            copyText(written, "timeUnixNano", event.path("time_unix_nano"));
            write(protoNamed(event.path("attributes")), written.putArray("attributes"));
        }
        return node;
    }

    /** OTLP key-values with the proto's field names as plain values; a value without one of its fields is left out. */
    private static Map<String, JsonNode> protoNamed(JsonNode list) {
        Map<String, JsonNode> attributes = new LinkedHashMap<>();
        for (JsonNode entry : list) {
            JsonNode value = plain(entry.path("value"));
            if (entry.path("key").isTextual() && value != null) {
                attributes.put(entry.path("key").asText(), value);
            }
        }
        return attributes;
    }

    private static JsonNode plain(JsonNode value) {
        for (String field : new String[] {"string_value", "bool_value", "int_value", "double_value",
                "bytes_value"}) {
            JsonNode given = value.path(field);
            if (!given.isMissingNode() && !given.isNull()) {
                return field.equals("int_value") && given.isTextual() ? parsedLong(given) : given;
            }
        }
        if (value.path("array_value").isObject()) {
            ArrayNode items = Json.MAPPER.createArrayNode();
            for (JsonNode item : value.path("array_value").path("values")) {
                JsonNode plain = plain(item);
                if (plain != null) {
                    items.add(plain);
                }
            }
            return items;
        }
        return null;
    }

    private static JsonNode parsedLong(JsonNode text) {
        try {
            return Json.MAPPER.getNodeFactory().numberNode(Long.parseLong(text.asText()));
        }
        catch (NumberFormatException e) {
            return text;
        }
    }

    private static void copy(ObjectNode node, String field, JsonNode value) {
        if (value.isTextual()) {
            node.put(field, value.asText());
        }
    }

    private static void copyText(ObjectNode node, String field, JsonNode value) {
        if (value.isValueNode() && !value.isNull()) {
            node.put(field, value.asText());
        }
    }

    private static String nanos(JsonNode time, String field, String traceId, String spanId) throws BadSpan {
        if (time.isMissingNode() || time.isNull()) {
            return "0";
        }
        try {
            Instant instant = OffsetDateTime.parse(time.asText()).toInstant();
            return Long.toString(Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L),
                    instant.getNano()));
        }
        catch (DateTimeException | ArithmeticException e) {
            throw new BadSpan(traceId, spanId.isEmpty() ? "(no span_id)" : TraceReader.shown(spanId), "span "
                    + TraceReader.shown(spanId) + ": " + field + " must be an ISO 8601 time with its offset, found '"
                    + TraceReader.shown(time.asText()) + "'");
        }
    }

    /** Nested attributes as OpenInference's dotted keys: objects joined with dots, lists of objects indexed. */
    private static void flatten(String prefix, JsonNode value, Map<String, JsonNode> attributes) {
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
            attributes.put(prefix, value);
        }
    }

    /**
     * The attributes with each JSON-text attribute Phoenix flattened ({@code tool.parameters.order_id},
     * {@code retrieval.documents.0.document.metadata.source}) joined back into its JSON text, digit keys as a list's
     * indexes, as Phoenix's own {@code unflatten} reads them.
     */
    static Map<String, JsonNode> joined(Map<String, JsonNode> flat) {
        Map<String, JsonNode> attributes = new LinkedHashMap<>();
        Map<String, ObjectNode> trees = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : flat.entrySet()) {
            String key = entry.getKey();
            int end = jsonTextEnd(key);
            if (end < 0) {
                attributes.putIfAbsent(key, entry.getValue());
                continue;
            }
            String owner = key.substring(0, end);
            ObjectNode tree = trees.get(owner);
            if (tree == null) {
                if (flat.containsKey(owner)) {
                    attributes.putIfAbsent(key, entry.getValue());
                    continue;
                }
                tree = Json.MAPPER.createObjectNode();
                trees.put(owner, tree);
                attributes.put(owner, tree);
            }
            insert(tree, key.substring(end + 1).split("\\.", -1), entry.getValue());
        }
        trees.forEach((owner, tree) -> attributes.put(owner, Json.MAPPER.getNodeFactory().textNode(
                lists(tree).toString())));
        return attributes;
    }

    /**
     * Where the JSON-text attribute a dotted key lies in ends ({@code metadata}, {@code tool.parameters},
     * {@code prompt_template.variables}, at any depth), or -1 when the key is not below one or lies too deep.
     */
    private static int jsonTextEnd(String key) {
        String[] parts = key.split("\\.", -1);
        int end = -1;
        for (int i = 0; i < parts.length - 1; i++) {
            end += parts[i].length() + 1;
            boolean owner = parts[i].equals("metadata") || i > 0 && (parts[i].equals("parameters")
                    && parts[i - 1].equals("tool") || parts[i].equals("variables")
                            && parts[i - 1].equals("prompt_template"));
            if (owner) {
                return parts.length - 1 - i > MAX_JOINED_DEPTH ? -1 : end;
            }
        }
        return -1;
    }

    private static void insert(ObjectNode tree, String[] path, JsonNode value) {
        ObjectNode node = tree;
        for (int i = 0; i < path.length - 1; i++) {
            JsonNode child = node.get(path[i]);
            if (child == null) {
                child = node.putObject(path[i]);
            }
            else if (!child.isObject()) {
                // a value and keys below it: the rest of the key stays dotted beside it
                node.set(String.join(".", Arrays.copyOfRange(path, i, path.length)), value);
                return;
            }
            node = (ObjectNode) child;
        }
        node.set(path[path.length - 1], value);
    }

    /** A tree whose objects keyed by indexes only become lists in the indexes' order, as Phoenix stored them. */
    private static JsonNode lists(JsonNode node) {
        if (!node.isObject() || node.isEmpty()) {
            return node;
        }
        TreeMap<Integer, JsonNode> indexed = new TreeMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (!entry.getKey().matches("\\d{1,9}")) {
                indexed = null;
                break;
            }
            indexed.put(Integer.valueOf(entry.getKey()), entry.getValue());
        }
        if (indexed != null) {
            ArrayNode list = Json.MAPPER.createArrayNode();
            indexed.values().forEach(item -> list.add(lists(item)));
            return list;
        }
        ObjectNode object = Json.MAPPER.createObjectNode();
        node.properties().forEach(entry -> object.set(entry.getKey(), lists(entry.getValue())));
        return object;
    }

    /** Plain attribute values as OTLP key-values: a list of plain values as an array, any other object as JSON text. */
    private static void write(Map<String, JsonNode> attributes, ArrayNode written) {
        attributes.forEach((key, value) -> {
            ObjectNode entry = written.addObject();
            entry.put("key", key);
            entry.set("value", otlpValue(value));
        });
    }

    private static ObjectNode otlpValue(JsonNode value) {
        ObjectNode written = Json.MAPPER.createObjectNode();
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
        else if (value.isArray() && allValues(value)) {
            ArrayNode values = written.putObject("arrayValue").putArray("values");
            value.forEach(item -> values.add(otlpValue(item)));
        }
        else {
            written.put("stringValue", value.toString());
        }
        return written;
    }

    private static boolean allValues(JsonNode list) {
        for (JsonNode item : list) {
            if (!item.isValueNode() || item.isNull()) {
                return false;
            }
        }
        return true;
    }
}
