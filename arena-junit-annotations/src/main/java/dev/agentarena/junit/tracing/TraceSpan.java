package dev.agentarena.junit.tracing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One span of a trace, in OpenTelemetry's terms but free of its classes: what the application under test emitted while
 * a case ran (captured in process), or what a trace export recorded. Scorers read a case's spans from
 * {@link dev.agentarena.junit.ScoringContext#spans()}.
 *
 * <p>Invariant: ids are lower-case hex as OTLP writes them (the parent's id empty for a root span), the end not
 * before the start, attribute values a {@code String}, {@code Long}, {@code Double}, {@code Boolean} or an
 * unmodifiable list of those, and every collection unmodifiable, in its order.
 *
 * @param traceId the trace's id, 32 hex digits
 * @param spanId the span's id, 16 hex digits
 * @param parentSpanId the parent span's id, empty for a root span
 * @param name the span's name, such as {@code chat gpt-4o} or {@code execute_tool lookup_order}
 * @param kind the span's kind
 * @param startEpochNanos when it started, in nanoseconds since the epoch
 * @param endEpochNanos when it ended, in nanoseconds since the epoch
 * @param status its status code
 * @param statusMessage the status's description, empty when none
 * @param attributes its attributes, such as {@code gen_ai.operation.name} or {@code gen_ai.usage.input_tokens}
 * @param events its events, such as {@code gen_ai.evaluation.result}
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record TraceSpan(String traceId, String spanId, String parentSpanId, String name, Kind kind,
        long startEpochNanos, long endEpochNanos, Status status, String statusMessage, Map<String, Object> attributes,
        List<Event> events) {

    /** The GenAI semantic conventions' attribute naming a span's operation ({@code chat}, {@code execute_tool}). */
    public static final String OPERATION_NAME = "gen_ai.operation.name";

    /** A span's kind, as OpenTelemetry names them. */
    public enum Kind { INTERNAL, SERVER, CLIENT, PRODUCER, CONSUMER }

    /** A span's status code, as OpenTelemetry names them. */
    public enum Status { UNSET, OK, ERROR }

    /**
     * An event of a span, such as an exception or a {@code gen_ai.evaluation.result}.
     *
     * @param name the event's name
     * @param epochNanos when it happened, in nanoseconds since the epoch
     * @param attributes its attributes, with the span's value types
     */
    public record Event(String name, long epochNanos, Map<String, Object> attributes) {

        /** Checks and freezes the attributes. */
        public Event {
            Objects.requireNonNull(name, "name");
            attributes = frozen(attributes, "event '" + name + "'");
        }
    }

    /**
     * Checks the span and freezes its collections.
     *
     * @throws IllegalArgumentException naming the span, when it ends before it starts or an attribute's value is not
     *     of an OpenTelemetry attribute type
     */
    public TraceSpan {
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(spanId, "spanId");
        parentSpanId = parentSpanId == null ? "" : parentSpanId;
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(status, "status");
        statusMessage = statusMessage == null ? "" : statusMessage;
        if (endEpochNanos < startEpochNanos) {
            throw new IllegalArgumentException("span '" + name + "' (" + spanId + ") ends before it starts: start "
                    + startEpochNanos + ", end " + endEpochNanos);
        }
        attributes = frozen(attributes, "span '" + name + "' (" + spanId + ")");
        events = events == null || events.isEmpty() ? List.of() : List.copyOf(events);
    }

    /** How long the span lasted. */
    public Duration duration() {
        return Duration.ofNanos(endEpochNanos - startEpochNanos);
    }

    /** Whether the span ended with the status {@link Status#ERROR}. */
    public boolean isError() {
        return status == Status.ERROR;
    }

    /** Whether the span has no parent. */
    public boolean isRoot() {
        return parentSpanId.isEmpty();
    }

    /** The value of this attribute, empty when the span has none. */
    public Optional<Object> attribute(String key) {
        return Optional.ofNullable(attributes.get(key));
    }

    /** The GenAI operation the span stands for ({@code chat}, {@code execute_tool}...), empty when it names none. */
    public Optional<String> operationName() {
        return attribute(OPERATION_NAME).map(String::valueOf);
    }

    private static Map<String, Object> frozen(@Nullable Map<String, Object> attributes, String owner) {
        if (attributes == null || attributes.isEmpty()) {
            return Map.of();
        }
        Map<String, Object> copy = new LinkedHashMap<>(attributes.size() * 2);
        attributes.forEach((key, value) -> copy.put(Objects.requireNonNull(key, owner + ": null attribute key"),
                attributeValue(value, owner, key)));
        return Collections.unmodifiableMap(copy);
    }

    private static Object attributeValue(@Nullable Object value, String owner, String key) {
        if (value instanceof String || value instanceof Long || value instanceof Double
                || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float number) {
            return number.doubleValue();
        }
        if (value instanceof List<?> list) {
            List<Object> items = new ArrayList<>(list.size());
            for (Object item : list) {
                if (item instanceof List<?>) {
                    throw new IllegalArgumentException(owner + ": attribute '" + key + "' holds a nested list");
                }
                items.add(attributeValue(item, owner, key));
            }
            return Collections.unmodifiableList(items);
        }
        throw new IllegalArgumentException(owner + ": attribute '" + key + "' must be a string, long, double, "
                + "boolean or a list of those, was " + (value == null ? "null" : value.getClass().getSimpleName()));
    }
}
