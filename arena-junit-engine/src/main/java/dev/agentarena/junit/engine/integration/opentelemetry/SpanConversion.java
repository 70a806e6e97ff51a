package dev.agentarena.junit.engine.integration.opentelemetry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.tracing.TraceSpan;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;

/**
 * The one conversion of the SDK's {@link SpanData} to a {@link TraceSpan}: ids as the SDK writes them (lower-case
 * hex), the parent's empty for a root, kinds and status codes by name, attributes with their types (a value of a
 * type {@link TraceSpan} does not hold, such as a byte array or a map, as its text), events in order, and an end
 * before the start (a clock that stepped back) moved to the start.
 */
final class SpanConversion {

    private SpanConversion() {
    }

    static TraceSpan traceSpan(SpanData span) {
        List<TraceSpan.Event> events = new ArrayList<>(span.getEvents().size());
        for (EventData event : span.getEvents()) {
            events.add(new TraceSpan.Event(event.getName(), event.getEpochNanos(), attributes(event.getAttributes())));
        }
        String parent = span.getParentSpanContext().isValid() ? span.getParentSpanId() : "";
        long start = span.getStartEpochNanos();
        return new TraceSpan(span.getTraceId(), span.getSpanId(), parent, span.getName(),
                TraceSpan.Kind.valueOf(span.getKind().name()), start, Math.max(start, span.getEndEpochNanos()),
                TraceSpan.Status.valueOf(span.getStatus().getStatusCode().name()), span.getStatus().getDescription(),
                attributes(span.getAttributes()), events);
    }

    private static Map<String, Object> attributes(Attributes attributes) {
        if (attributes.isEmpty()) {
            return Map.of();
        }
        Map<String, Object> values = new LinkedHashMap<>(attributes.size() * 2);
        attributes.forEach((key, value) -> values.put(key.getKey(), value(value)));
        return values;
    }

    private static Object value(Object value) {
        if (value instanceof String || value instanceof Long || value instanceof Double || value instanceof Boolean) {
            return value;
        }
        if (value instanceof List<?> list) {
            List<Object> items = new ArrayList<>(list.size());
            list.forEach(item -> items.add(item instanceof List<?> ? String.valueOf(item) : value(item)));
            return items;
        }
        return String.valueOf(value);
    }
}
