package dev.agentarena.junit.engine.traces;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * OTLP's JSON encoding of spans (an {@code ExportTraceServiceRequest} or {@code TracesData}: {@code resourceSpans},
 * {@code scopeSpans}, {@code spans}), read with Jackson's streaming parser one span at a time, so that a document of
 * any size is never held: only the span being read is a tree.
 *
 * <p>Invariant: a span either becomes a {@link TraceSpan} or a {@link BadSpan} naming its span id and what is wrong;
 * ids are checked as hex of their length, times as unsigned nanoseconds, kinds and status codes as OTLP's numbers or
 * names.
 */
final class OtlpJsonSpans {

    private OtlpJsonSpans() {
    }

    /**
     * The spans of one JSON document, one at a time from Jackson's streaming parser: only the span being read is a
     * tree. Not thread-safe.
     */
    static final class Cursor {
        private final JsonParser parser;
        /** Whether the cursor reads every document to the end of the input, not only the first. */
        private final boolean untilEnd;
        private int depth;
        private boolean inSpans;
        private boolean done;
        private int line;

        Cursor(JsonParser parser, boolean untilEnd) {
            this.parser = parser;
            this.untilEnd = untilEnd;
        }

        /** The next span's tree (an object, or whatever the file holds in its place), {@code null} at the end. */
        JsonNode next() throws IOException {
            while (!done) {
                JsonToken token = parser.nextToken();
                if (token == null) {
                    done = true;
                    return null;
                }
                if (inSpans) {
                    if (token == JsonToken.END_ARRAY) {
                        inSpans = false;
                        continue;
                    }
                    line = parser.currentTokenLocation().getLineNr();
                    return parser.readValueAsTree();
                }
                if (token == JsonToken.FIELD_NAME && parser.currentName().equals("spans")) {
                    if (parser.nextToken() == JsonToken.START_ARRAY) {
                        inSpans = true;
                    }
                    else {
                        parser.skipChildren();
                    }
                }
                else if (token == JsonToken.FIELD_NAME && (parser.currentName().equals("resource")
                        || parser.currentName().equals("scope"))) {
                    parser.nextToken();
                    parser.skipChildren();
                }
                else if (token.isStructStart()) {
                    depth++;
                }
                else if (token.isStructEnd() && --depth == 0 && !untilEnd) {
                    // one document read: the caller reads the next line
                    done = true;
                }
            }
            return null;
        }

        /** The line the last span returned starts on. */
        int line() {
            return line;
        }
    }

    /** A span as OTLP JSON writes it. */
    static TraceSpan span(JsonNode span) throws BadSpan {
        if (!span.isObject()) {
            throw new BadSpan("", "(no spanId)", "a span must be an object, found " + span.getNodeType()
                    .name().toLowerCase(Locale.ROOT));
        }
        String spanId = span.path("spanId").asText("");
        String shownId = spanId.isEmpty() ? "(no spanId)" : TraceReader.shown(spanId);
        String traceId = span.path("traceId").asText("");
        if (traceId.isEmpty()) {
            throw new BadSpan("", shownId, "span " + shownId + " has no traceId");
        }
        if (!isHex(traceId, 32)) {
            throw new BadSpan("", shownId, "span " + shownId + " has a traceId that is not 32 hex digits: '"
                    + TraceReader.shown(traceId) + "'");
        }
        traceId = traceId.toLowerCase(Locale.ROOT);
        if (!isHex(spanId, 16)) {
            throw new BadSpan(traceId, shownId, "span " + shownId + " of trace " + traceId
                    + (spanId.isEmpty() ? " has no spanId" : " has a spanId that is not 16 hex digits"));
        }
        String parent = span.path("parentSpanId").asText("");
        if (!parent.isEmpty() && !isHex(parent, 16)) {
            throw new BadSpan(traceId, spanId, "span " + spanId + " of trace " + traceId
                    + " has a parentSpanId that is not 16 hex digits: '" + TraceReader.shown(parent) + "'");
        }
        long start = nanos(span, "startTimeUnixNano", spanId, traceId);
        long end = nanos(span, "endTimeUnixNano", spanId, traceId);
        if (end < start) {
            throw new BadSpan(traceId, spanId, "span " + spanId + " of trace " + traceId + " ends before it starts: "
                    + "startTimeUnixNano " + Long.toUnsignedString(start) + ", endTimeUnixNano "
                    + Long.toUnsignedString(end));
        }
        List<TraceSpan.Event> events = new ArrayList<>();
        for (JsonNode event : span.path("events")) {
            events.add(new TraceSpan.Event(event.path("name").asText(""), nanos(event, "timeUnixNano", spanId,
                    traceId), attributes(event.path("attributes"))));
        }
        try {
            return new TraceSpan(traceId, spanId.toLowerCase(Locale.ROOT),
                    parent.toLowerCase(Locale.ROOT), span.path("name").asText(""), kind(span.path("kind")),
                    start, end, status(span.path("status").path("code")), span.path("status").path("message")
                            .asText(""), attributes(span.path("attributes")), events);
        }
        catch (IllegalArgumentException e) {
            throw new BadSpan(traceId, spanId, "span " + spanId + " of trace " + traceId + ": " + e.getMessage());
        }
    }

    /** OTLP's key-value list as the span's attributes: a map or nested list as JSON text, bytes as base64 text. */
    static Map<String, Object> attributes(JsonNode list) {
        if (!list.isArray() || list.isEmpty()) {
            return Map.of();
        }
        Map<String, Object> attributes = new LinkedHashMap<>();
        for (JsonNode entry : list) {
            Object value = value(entry.path("value"), true);
            if (value != null && entry.path("key").isTextual()) {
                attributes.put(entry.path("key").asText(), value);
            }
        }
        return attributes;
    }

    private static Object value(JsonNode value, boolean top) {
        if (value.has("stringValue")) {
            return value.path("stringValue").asText();
        }
        if (value.has("boolValue")) {
            return value.path("boolValue").asBoolean();
        }
        if (value.has("intValue")) {
            // OTLP JSON writes a 64-bit integer as a string
            try {
                return Long.parseLong(value.path("intValue").asText());
            }
            catch (NumberFormatException e) {
                return value.path("intValue").asText();
            }
        }
        if (value.has("doubleValue")) {
            return value.path("doubleValue").asDouble();
        }
        if (value.has("bytesValue")) {
            return value.path("bytesValue").asText();
        }
        if (value.has("arrayValue") && top) {
            List<Object> items = new ArrayList<>();
            for (JsonNode item : value.path("arrayValue").path("values")) {
                Object itemValue = value(item, false);
                if (itemValue != null) {
                    items.add(itemValue);
                }
            }
            return items;
        }
        if (value.has("arrayValue") || value.has("kvlistValue")) {
            return Json.write(plain(value));
        }
        return null;
    }

    /** A nested OTLP value as plain JSON-like values, for a map or list attribute kept as JSON text. */
    private static Object plain(JsonNode value) {
        if (value.has("kvlistValue")) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (JsonNode entry : value.path("kvlistValue").path("values")) {
                map.put(entry.path("key").asText(), plain(entry.path("value")));
            }
            return map;
        }
        if (value.has("arrayValue")) {
            List<Object> items = new ArrayList<>();
            for (JsonNode item : value.path("arrayValue").path("values")) {
                items.add(plain(item));
            }
            return items;
        }
        return value(value, false);
    }

    private static long nanos(JsonNode node, String field, String spanId, String traceId) throws BadSpan {
        JsonNode value = node.path(field);
        if (value.isMissingNode() || value.isNull()) {
            return 0;
        }
        try {
            return Long.parseUnsignedLong(value.asText());
        }
        catch (NumberFormatException e) {
            throw new BadSpan(traceId, spanId, "span " + spanId + " of trace " + traceId + ": " + field
                    + " must be nanoseconds since the epoch, found '" + TraceReader.shown(value.asText()) + "'");
        }
    }

    private static TraceSpan.Kind kind(JsonNode kind) {
        String name = kind.asText("");
        return switch (name) {
            case "2", "SPAN_KIND_SERVER" -> TraceSpan.Kind.SERVER;
            case "3", "SPAN_KIND_CLIENT" -> TraceSpan.Kind.CLIENT;
            case "4", "SPAN_KIND_PRODUCER" -> TraceSpan.Kind.PRODUCER;
            case "5", "SPAN_KIND_CONSUMER" -> TraceSpan.Kind.CONSUMER;
            default -> TraceSpan.Kind.INTERNAL;
        };
    }

    private static TraceSpan.Status status(JsonNode code) {
        return switch (code.asText("")) {
            case "1", "STATUS_CODE_OK" -> TraceSpan.Status.OK;
            case "2", "STATUS_CODE_ERROR" -> TraceSpan.Status.ERROR;
            default -> TraceSpan.Status.UNSET;
        };
    }

    static boolean isHex(String id, int length) {
        if (id.length() != length) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            if (Character.digit(id.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }
}
