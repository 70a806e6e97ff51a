package dev.agentarena.junit.engine.results;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.tracing.TraceSpan;

/**
 * A case's spans as the reports show them, one compact row each: name, duration, status and the GenAI attributes
 * that say what the span did ({@link #KEY_ATTRIBUTES}), in the case's order, a child indented under its parent.
 * Every cell is one line of at most {@value #CELL} characters, whatever the application put in its spans.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class SpanTable {

    /** The attributes a row shows, in this order, when the span has them. */
    public static final List<String> KEY_ATTRIBUTES = List.of(TraceSpan.OPERATION_NAME, "gen_ai.request.model",
            "gen_ai.tool.name", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "error.type");

    /** The deepest a row is indented. */
    static final int MAX_DEPTH = 16;

    /** The longest a cell is shown. */
    static final int CELL = 200;

    private SpanTable() {
    }

    /** The spans as text rows: {@code name  12.345 ms  ERROR: message  gen_ai.operation.name=chat ...}. */
    public static String text(List<TraceSpan> spans) {
        StringBuilder text = new StringBuilder();
        for (Row row : rows(spans)) {
            text.append("  ".repeat(row.depth())).append(row.name()).append("  ").append(row.duration())
                    .append("  ").append(row.status());
            if (!row.attributes().isEmpty()) {
                text.append("  ").append(row.attributes());
            }
            text.append('\n');
        }
        return text.toString();
    }

    /**
     * One span's row.
     *
     * @param depth how many of its ancestors are among the spans shown
     * @param name the span's name, one line
     * @param duration its duration in milliseconds, as {@code 12.345 ms}
     * @param status its status, and its message after a colon when it has one
     * @param attributes its key attributes as {@code key=value}, space-separated
     */
    public record Row(int depth, String name, String duration, String status, String attributes) {
    }

    /** The rows of the spans, in their order. */
    public static List<Row> rows(List<TraceSpan> spans) {
        List<Facts> facts = new ArrayList<>(spans.size());
        for (TraceSpan span : spans) {
            facts.add(new Facts(span.spanId(), span.parentSpanId(), span.name(), span.duration().toNanos(),
                    span.status().name(), span.statusMessage(), span.attributes()));
        }
        return rowsOf(facts);
    }

    /**
     * The rows of the spans as a results line holds them ({@code ResultLineCodec.spansJson}), in their order; a field
     * a hand-edited line lacks or spoils is shown empty (0 for a duration), never an error of the report.
     */
    public static List<Row> rowsOfJson(JsonNode spans) {
        List<Facts> facts = new ArrayList<>(spans.size());
        for (JsonNode span : spans) {
            Map<String, Object> attributes = new LinkedHashMap<>();
            JsonNode given = span.path("attributes");
            for (String key : KEY_ATTRIBUTES) {
                JsonNode value = given.get(key);
                if (value != null && !value.isNull()) {
                    attributes.put(key, value.isValueNode() ? value.asText() : value.toString());
                }
            }
            facts.add(new Facts(span.path("span_id").asText(), span.path("parent_span_id").asText(),
                    span.path("name").asText(), span.path("end_epoch_nanos").asLong()
                            - span.path("start_epoch_nanos").asLong(), span.path("status").asText(),
                    span.path("status_message").asText(), attributes));
        }
        return rowsOf(facts);
    }

    /** What a row is made of, from a span or its JSON. */
    private record Facts(String id, String parentId, String name, long nanos, String status, String message,
            Map<String, Object> attributes) {
    }

    private static List<Row> rowsOf(List<Facts> spans) {
        Map<String, Facts> byId = new HashMap<>(spans.size() * 2);
        spans.forEach(span -> byId.putIfAbsent(span.id(), span));
        List<Row> rows = new ArrayList<>(spans.size());
        for (Facts span : spans) {
            int depth = 0;
            // bounded: a cycle of parent ids, as a hostile export may hold, stops at the deepest indent shown
            for (Facts parent = byId.get(span.parentId()); parent != null && depth < MAX_DEPTH;
                    parent = byId.get(parent.parentId())) {
                depth++;
            }
            List<String> attributes = new ArrayList<>();
            for (String key : KEY_ATTRIBUTES) {
                Object value = span.attributes().get(key);
                if (value != null) {
                    attributes.add(key + "=" + cell(String.valueOf(value)));
                }
            }
            String status = span.status() + (span.message().isEmpty() ? "" : ": " + cell(span.message()));
            rows.add(new Row(depth, cell(span.name()), String.format(Locale.ROOT, "%.3f ms", span.nanos() / 1e6),
                    status, String.join(" ", attributes)));
        }
        return rows;
    }

    private static String cell(String text) {
        return SinkText.name(text, CELL);
    }
}
