package dev.agentarena.junit.engine.traces;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.model.ToolCall;

/**
 * Arize Phoenix's span export (its REST API's spans: pages of {@code data}, or one span per line) read by the OTLP
 * rules: OpenInference attributes flat or nested, the span kind, ISO 8601 times, errors naming file, line and span.
 */
class PhoenixReaderTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    private static final String ROOT = "{\"name\": \"agent\", \"context\": {\"trace_id\": \"" + TRACE + "\", "
            + "\"span_id\": \"b000000000000001\"}, \"span_kind\": \"AGENT\", \"parent_id\": null, "
            + "\"start_time\": \"2026-12-05T10:00:00.000+00:00\", \"end_time\": \"2026-12-05T10:00:02.500+00:00\", "
            + "\"status_code\": \"OK\", \"attributes\": {\"input\": {\"value\": \"Refund time?\"}, "
            + "\"output\": {\"value\": \"30 days.\"}, \"session\": {\"id\": \"s-9\"}}}";
    private static final String RETRIEVER = "{\"name\": \"retrieve\", \"context\": {\"trace_id\": \"" + TRACE + "\", "
            + "\"span_id\": \"b000000000000002\"}, \"span_kind\": \"RETRIEVER\", \"parent_id\": \"b000000000000001\", "
            + "\"start_time\": \"2026-12-05T10:00:00.100Z\", \"end_time\": \"2026-12-05T10:00:00.200Z\", "
            + "\"status_code\": \"OK\", \"attributes\": {\"retrieval\": {\"documents\": [{\"document\": "
            + "{\"id\": \"doc-7\", \"content\": \"Refunds take 30 days.\", \"score\": 0.9}}]}}}";
    private static final String TOOL = "{\"name\": \"refund_status\", \"context\": {\"trace_id\": \"" + TRACE + "\", "
            + "\"span_id\": \"b000000000000003\"}, \"span_kind\": \"TOOL\", \"parent_id\": \"b000000000000001\", "
            + "\"start_time\": \"2026-12-05T10:00:01Z\", \"end_time\": \"2026-12-05T10:00:01.300Z\", "
            + "\"status_code\": \"ERROR\", \"status_message\": \"timed out\", \"attributes\": {\"tool.name\": "
            + "\"refund_status\", \"tool.parameters\": \"{\\\"order\\\": 7}\"}}";

    @Test
    void aPageOfSpansIsATraceWithItsInputOutputPassagesAndTools() {
        List<ReadTrace> traces = read(TraceReader.phoenix("p.phoenix.json", new StringReader(
                "{\"data\": [" + RETRIEVER + ",\n" + TOOL + ",\n" + ROOT + "], \"next_cursor\": null}")));

        assertThat(traces).singleElement().satisfies(trace -> {
            assertThat(trace.evalCase().input()).isEqualTo("Refund time?");
            assertThat(trace.evalCase().recordedOutput()).contains("30 days.");
            assertThat(trace.evalCase().metadata()).containsEntry("session_id", "s-9");
            assertThat(trace.evalCase().recordedRetrieved()).extracting(p -> p.id() + "@" + p.score())
                    .containsExactly("doc-7@0.9");
            assertThat(trace.evalCase().recordedTrajectory().toolSteps()).singleElement().satisfies(step -> {
                assertThat(step.call()).isEqualTo(new ToolCall("refund_status", java.util.Map.of("order", 7)));
                assertThat(step.error()).isEqualTo("timed out");
            });
            assertThat(trace.evalCase().recordedSpans().get(2).duration().toMillis()).isEqualTo(2500);
        });
    }

    @Test
    void aSpanPerLineAndABadTimeIsAnErrorNamingTheLineAndSpan() {
        String badTime = RETRIEVER.replace("2026-12-05T10:00:00.100Z", "yesterday");
        List<ReadTrace> traces = read(TraceReader.phoenixLines("p.phoenix.jsonl", new StringReader(
                TOOL + "\n" + badTime + "\n" + ROOT + "\n{oops\n")));

        assertThat(traces).extracting(ReadTrace::caseId).containsExactly("p.phoenix.jsonl:2:b000000000000002",
                "p.phoenix.jsonl:4", TRACE);
        assertThat(traces.get(0).error()).isEqualTo("p.phoenix.jsonl:2: span b000000000000002: start_time must be "
                + "an ISO 8601 time with its offset, found 'yesterday'");
        assertThat(traces.get(2).evalCase().recordedSpans()).hasSize(2);
    }

    private static List<ReadTrace> read(TraceReader reader) {
        List<ReadTrace> traces = new ArrayList<>();
        reader.forEachRemaining(traces::add);
        return traces;
    }
}
