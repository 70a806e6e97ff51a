package dev.agentarena.junit.engine.results;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apiguardian.api.API;

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
        Map<String, TraceSpan> byId = new HashMap<>(spans.size() * 2);
        spans.forEach(span -> byId.putIfAbsent(span.spanId(), span));
        List<Row> rows = new ArrayList<>(spans.size());
        for (TraceSpan span : spans) {
            int depth = 0;
            // bounded: a cycle of parent ids, as a hostile export may hold, stops at the number of spans
            for (TraceSpan parent = byId.get(span.parentSpanId()); parent != null && depth < spans.size();
                    parent = byId.get(parent.parentSpanId())) {
                depth++;
            }
            List<String> attributes = new ArrayList<>();
            for (String key : KEY_ATTRIBUTES) {
                span.attribute(key).ifPresent(value -> attributes.add(key + "=" + cell(String.valueOf(value))));
            }
            String status = span.status().name() + (span.statusMessage().isEmpty() ? "" : ": "
                    + cell(span.statusMessage()));
            rows.add(new Row(Math.min(depth, 16), cell(span.name()), String.format(Locale.ROOT, "%.3f ms",
                    span.duration().toNanos() / 1e6), status, String.join(" ", attributes)));
        }
        return rows;
    }

    private static String cell(String text) {
        return SinkText.name(text, CELL);
    }
}
