package dev.agentarena.junit.engine.traces;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * Arize Phoenix's span exports (its REST API's spans and OTLP spans: pages of {@code data}, or one span per line)
 * read by the OTLP rules: OpenInference attributes flat or nested, the JSON attributes Phoenix flattens joined back,
 * the span kind, ISO 8601 times, errors naming file, line and span. The files under {@code fixtures/traces} are
 * shaped like Phoenix 13's answers, field for field.
 */
class PhoenixReaderTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String OTHER = "5bf92f3577b34da6a3ce929d0e0e4737";

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
    void aSpanPerLineAndABadTimeMakesItsTraceAnErrorNamingTheLineAndSpan() {
        String badTime = RETRIEVER.replace("2026-12-05T10:00:00.100Z", "yesterday");
        List<ReadTrace> traces = read(TraceReader.phoenixLines("p.phoenix.jsonl", new StringReader(
                TOOL + "\n" + badTime + "\n" + ROOT + "\n{oops\n" + badTime.replace(TRACE, "not-hex"))));

        assertThat(traces).extracting(ReadTrace::caseId).containsExactly("p.phoenix.jsonl:4",
                "p.phoenix.jsonl:5:b000000000000002", TRACE);
        assertThat(traces.get(2).error()).isEqualTo("p.phoenix.jsonl:2: span b000000000000002: start_time must be "
                + "an ISO 8601 time with its offset, found 'yesterday'");
        assertThat(traces.get(1).error()).startsWith("p.phoenix.jsonl:5: span b000000000000002: start_time");
    }

    @Test
    void theSpansApiPageIsReadWithTheJsonAttributesPhoenixFlattenedJoinedBack() {
        List<ReadTrace> traces = read(TraceReader.phoenix("support.phoenix.json", resource("support.phoenix.json")));

        assertThat(traces).extracting(ReadTrace::caseId).containsExactly("7a2e3f4051627384958a6b7c8d9e0f12",
                "6f1d2c3b4a5968778695a4b3c2d1e0f1");
        assertThat(traces.get(1).evalCase()).satisfies(agent -> {
            assertThat(agent.metadata()).containsEntry("session_id", "sess-7").containsEntry("user_id", "u-42");
            assertThat(agent.recordedTrajectory().toolSteps()).extracting(step -> step.call().arguments())
                    .containsExactly(Map.of("order_id", 42), Map.of("order_id", 7, "items", List.of(Map.of("sku",
                            "A1", "qty", 2))));
            assertThat(agent.recordedTrajectory().toolSteps().get(1).error())
                    .isEqualTo("TimeoutError: refunds API did not answer in 5s");
            assertThat(agent.recordedTrajectory().modelSteps()).extracting(step -> step.tokensIn())
                    .containsExactly(412L, 655L);
            assertThat(agent.recordedRetrieved()).first().satisfies(passage -> {
                assertThat(passage.source()).containsEntry("source", "faq/shipping.md").containsEntry("page", 3);
                assertThat(passage.score()).isEqualTo(0.91);
            });
            TraceSpan root = agent.recordedSpans().get(0);
            assertThat(root.attributes()).containsEntry("metadata", "{\"tier\":\"gold\",\"region\":\"eu-west-1\"}")
                    .containsEntry("tag.tags", List.of("prod", "support"))
                    .containsEntry("openinference.span.kind", "AGENT");
            assertThat(agent.recordedSpans()).filteredOn(TraceSpan::isError).singleElement()
                    .satisfies(tool -> assertThat(tool.events()).singleElement().satisfies(event -> assertThat(event
                            .attributes()).containsEntry("exception.type", "TimeoutError")));
        });
        assertThat(traces.get(0).evalCase().input()).isEqualTo("What is wrong with the parcel in this photo?");
        assertThat(traces.get(0).evalCase().recordedSpans().get(0).isError()).isTrue();
    }

    @Test
    void otlpv1PagesOneALineAreOtlpSpansWithTheProtoFieldNames() {
        List<ReadTrace> traces = read(TraceReader.phoenixLines("support.otlpv1.phoenix.jsonl",
                resource("support.otlpv1.phoenix.jsonl")));

        assertThat(traces).extracting(ReadTrace::caseId).containsExactly(
                "support.otlpv1.phoenix.jsonl:3:zz00000000000009", "support.otlpv1.phoenix.jsonl:4",
                "8b3f405162738495a6b7c8d9e0f1a2b3");
        assertThat(traces.get(2).evalCase()).satisfies(rag -> {
            assertThat(rag.input()).isEqualTo("What is the refund window?");
            assertThat(rag.metadata()).containsEntry("session_id", "sess-12");
            assertThat(rag.recordedRetrieved()).extracting(p -> p.id() + "@" + p.score() + p.source())
                    .containsExactly("kb-refunds@0.88{source=kb/refunds.md}", "kb-returns@0.61{}");
            assertThat(rag.recordedTrajectory().modelSteps()).singleElement()
                    .satisfies(step -> assertThat(step.tokensIn()).isEqualTo(388));
            assertThat(rag.recordedSpans()).extracting(TraceSpan::parentSpanId).containsExactly(
                    "c000000000000001", "c000000000000001", "");
            assertThat(rag.recordedSpans().get(1).events()).singleElement().satisfies(event -> assertThat(event
                    .attributes()).containsEntry("cache", "miss"));
            assertThat(rag.recordedSpans().get(2).attributes()).containsEntry("tag.tags", List.of("prod", "rag"))
                    .containsEntry("metadata", "{\"experiment\":\"baseline\"}");
        });
    }

    @Test
    void aSingleSpanSavedAsItIsIsARecordAndAPageMayFollowIt() {
        List<ReadTrace> traces = read(TraceReader.phoenix("p.phoenix.json", new StringReader(ROOT.replace(
                "\"agent\"", "\"agent\", \"data\": 1") + "\n{\"next_cursor\": null, \"data\": [" + RETRIEVER
                        + "]}")));

        assertThat(traces).singleElement().satisfies(trace -> assertThat(trace.evalCase().recordedSpans())
                .extracting(TraceSpan::name).containsExactly("agent", "retrieve"));
    }

    @Test
    void pagesGatheredIntoOneListAreReadPageByPage() {
        List<ReadTrace> traces = read(TraceReader.phoenix("p.phoenix.json", new StringReader("[{\"data\": ["
                + RETRIEVER + ", " + TOOL + "], \"next_cursor\": \"U3BhbjoxMg==\"},\n{\"data\": [" + ROOT
                + "], \"next_cursor\": null}]")));

        assertThat(traces).singleElement().satisfies(trace -> assertThat(trace.evalCase().recordedSpans())
                .extracting(TraceSpan::name).containsExactly("retrieve", "refund_status", "agent"));
    }

    @Test
    void hostileAttributesAreKeptAsTheyCameWhereTheyCannotBeJoined() {
        String deep = "tool.parameters" + ".k".repeat(70);
        String huge = "x".repeat(2_000_000);
        String span = "{\"name\": \"t\", \"context\": {\"trace_id\": \"" + TRACE + "\", \"span_id\": "
                + "\"b000000000000009\"}, \"span_kind\": \"TOOL\", \"parent_id\": null, \"start_time\": "
                + "\"2026-12-05T10:00:00+00:00\", \"end_time\": \"2026-12-05T10:00:01+00:00\", \"status_code\": "
                + "\"UNSET\", \"attributes\": {\"metadata\": \"{}\", \"metadata.a\": 1, \"" + deep + "\": 2, "
                + "\"tool.parameters.a\": 1, \"tool.parameters.a.b\": 2, \"input.value\": \"" + huge + "\", "
                + "\"tool.parameters.0\": \"\\u0000\\uffff\"}}";

        List<ReadTrace> traces = read(TraceReader.phoenixLines("h.phoenix.jsonl", new StringReader(span + "\n"
                + span.replace("b000000000000009", "b0000000\\u0007\\u0000zz").replace(TRACE, OTHER))));

        assertThat(traces.get(1).error()).isEqualTo("h.phoenix.jsonl:2: span b0000000??zz of trace " + OTHER
                + " has a spanId that is not 16 hex digits");
        assertThat(traces.get(0).evalCase().recordedSpans().get(0).attributes())
                .containsEntry("metadata", "{}").containsEntry("metadata.a", 1L).containsEntry(deep, 2L)
                .containsEntry("tool.parameters", "{\"a\":1,\"a.b\":2,\"0\":\"\\u0000\uffff\"}")
                .containsEntry("input.value", huge);
    }

    private static Reader resource(String name) {
        return new InputStreamReader(PhoenixReaderTest.class.getResourceAsStream(
                "/dev/agentarena/junit/engine/fixtures/traces/" + name), StandardCharsets.UTF_8);
    }

    private static List<ReadTrace> read(TraceReader reader) {
        List<ReadTrace> traces = new ArrayList<>();
        reader.forEachRemaining(traces::add);
        return traces;
    }
}
