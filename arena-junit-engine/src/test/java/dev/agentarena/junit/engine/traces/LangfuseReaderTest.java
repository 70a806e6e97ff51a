package dev.agentarena.junit.engine.traces;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * Langfuse's exports as cases: a trace with its observations (its API's {@code TraceWithFullDetails}) or
 * observations on their own grouped by trace (v4's {@code /api/public/v2/observations}, JSON text input and output);
 * generations, tools and retrievers in the GenAI conventions, the case named by the Langfuse trace id, errors naming
 * file, line and observation. The files under {@code fixtures/traces} are shaped like the API types of
 * {@code @langfuse/core} 5.11.1, field for field.
 */
class LangfuseReaderTest {

    private static final String TRACE = "{\"id\": \"lf-trace-1\", \"name\": \"support\", \"timestamp\": "
            + "\"2026-12-05T10:00:00.000Z\", \"input\": \"Where is order 42?\", \"output\": \"It shipped on Monday.\", "
            + "\"sessionId\": \"sess-7\", \"observations\": ["
            + "{\"id\": \"o1\", \"type\": \"GENERATION\", \"name\": \"plan\", \"model\": \"gpt-4o\", "
            + "\"startTime\": \"2026-12-05T10:00:00.100Z\", \"endTime\": \"2026-12-05T10:00:00.900Z\", "
            + "\"input\": [{\"role\": \"user\", \"content\": \"Where is order 42?\"}], \"output\": \"\", "
            + "\"usageDetails\": {\"input\": 40, \"output\": 5}},"
            + "{\"id\": \"o2\", \"type\": \"TOOL\", \"name\": \"lookup_order\", \"parentObservationId\": null, "
            + "\"startTime\": \"2026-12-05T10:00:01.000Z\", \"endTime\": \"2026-12-05T10:00:01.200Z\", "
            + "\"input\": {\"order_id\": 42}, \"output\": {\"status\": \"shipped\"}},"
            + "{\"id\": \"o3\", \"type\": \"RETRIEVER\", \"name\": \"kb\", "
            + "\"startTime\": \"2026-12-05T10:00:01.300Z\", \"endTime\": \"2026-12-05T10:00:01.400Z\", "
            + "\"output\": [{\"pageContent\": \"Orders ship in two days.\", \"metadata\": {\"id\": \"faq-ship\"}}]},"
            + "{\"id\": \"o4\", \"type\": \"GENERATION\", \"name\": \"answer\", \"model\": \"gpt-4o\", "
            + "\"startTime\": \"2026-12-05T10:00:01.500Z\", \"endTime\": \"2026-12-05T10:00:02.000Z\", "
            + "\"output\": {\"role\": \"assistant\", \"content\": \"It shipped on Monday.\"}}]}";

    @Test
    void aTraceWithItsObservationsIsACaseNamedByItsId() {
        List<ReadTrace> traces = read(TraceReader.langfuseLines("t.langfuse.jsonl", new StringReader(TRACE)));

        assertThat(traces).singleElement().satisfies(trace -> {
            assertThat(trace.caseId()).isEqualTo("lf-trace-1");
            assertThat(trace.evalCase().input()).isEqualTo("Where is order 42?");
            assertThat(trace.evalCase().recordedOutput()).contains("It shipped on Monday.");
            assertThat(trace.evalCase().metadata()).containsEntry("session_id", "sess-7");
            assertThat(trace.evalCase().recordedTrajectory().toolCalls()).containsExactly(
                    new ToolCall("lookup_order", Map.of("order_id", 42)));
            assertThat(trace.evalCase().recordedTrajectory().toolSteps().get(0).result())
                    .isEqualTo("{\"status\":\"shipped\"}");
            assertThat(trace.evalCase().recordedTrajectory().modelSteps()).extracting(step -> step.tokensIn())
                    .containsExactly(40L, 0L);
            assertThat(trace.evalCase().recordedRetrieved()).extracting(p -> p.id() + ": " + p.text())
                    .containsExactly("faq-ship: Orders ship in two days.");
            assertThat(trace.evalCase().recordedSpans()).hasSize(5);
        });
    }

    @Test
    void aListOfTracesStreamsAndABadTimeOrAMissingIdIsAnErrorOfItsOwn() {
        String badTime = TRACE.replace("lf-trace-1", "lf-trace-2").replace("2026-12-05T10:00:01.000Z", "soon");
        List<ReadTrace> traces = read(TraceReader.langfuse("t.langfuse.json", new StringReader(
                "[" + TRACE + ",\n" + badTime + ",\n{\"name\": \"no id\"}]")));

        assertThat(traces).extracting(ReadTrace::caseId).containsExactly("lf-trace-1", "lf-trace-2",
                "t.langfuse.json:3");
        assertThat(traces.get(1).error()).isEqualTo("t.langfuse.json:2: observation o2: the time must be ISO 8601 "
                + "with its offset, found 'soon'");
        assertThat(traces.get(2).error()).isEqualTo("t.langfuse.json:3: a Langfuse trace needs an 'id' (an "
                + "observation, its 'traceId')");
    }

    @Test
    void aTraceSavedAsTheApiReturnsItIsOneCaseWithEveryKindOfObservation() {
        List<ReadTrace> traces = read(TraceReader.langfuse("support.langfuse.json", resource("support.langfuse.json")));

        assertThat(traces).singleElement().satisfies(trace -> {
            assertThat(trace.caseId()).isEqualTo("b7c1e0a2-5d4f-4c3b-9a8e-1f2d3c4b5a69");
            assertThat(trace.evalCase().input()).isEqualTo("Can I return the damaged kettle?");
            assertThat(trace.evalCase().recordedOutput()).contains("Yes: damaged items can be returned within 30 "
                    + "days; I opened return R-981.");
            assertThat(trace.evalCase().metadata()).containsEntry("session_id", "sess-31")
                    .containsEntry("user_id", "user-77");
            assertThat(trace.evalCase().recordedTrajectory().modelSteps()).extracting(step -> step.model() + ":"
                    + step.tokensIn() + "/" + step.tokensOut()).containsExactly("gpt-4o-mini:812/24",
                            "gpt-4o-mini:1040/31");
            assertThat(trace.evalCase().recordedTrajectory().toolSteps()).extracting(step -> step.error())
                    .containsExactly("returns API timed out after 500 ms", null);
            assertThat(trace.evalCase().recordedRetrieved()).extracting(p -> p.id() + "@" + p.score() + ": "
                    + p.text()).containsExactly("passage-1@0.87: Damaged items can be returned within 30 days.",
                            "kb-42@null: Refunds are issued to the original payment method.");
            assertThat(trace.evalCase().recordedSpans()).extracting(span -> span.attributes().get(
                    "gen_ai.operation.name")).containsExactly(null, "invoke_agent", "chat", "retrieval",
                            "execute_tool", "execute_tool", "chat", null, null);
            TraceSpan offset = trace.evalCase().recordedSpans().get(5);
            assertThat(Instant.ofEpochSecond(0, offset.startEpochNanos()))
                    .isEqualTo(Instant.parse("2026-12-05T09:30:02.100Z"));
        });
    }

    @Test
    void v4ObservationPagesOneALineAreGroupedByTraceWithTheirJsonTextParsed() {
        List<ReadTrace> traces = read(TraceReader.langfuseLines("support.v2.langfuse.jsonl",
                resource("support.v2.langfuse.jsonl")));

        assertThat(traces).extracting(ReadTrace::caseId).containsExactly("support.v2.langfuse.jsonl:4",
                "4f8c2a1e9b7d4c3a8e6f1b2d3c4a5e6f", "5d9e3b2f0a8c4d4b9f7a2c3e4d5b6f70");
        assertThat(traces.get(1).evalCase()).satisfies(cancel -> {
            assertThat(cancel.input()).isEqualTo("Cancel order 77 please");
            assertThat(cancel.recordedOutput()).contains("Order 77 is cancelled; the refund of 24.90 EUR is on its "
                    + "way.");
            assertThat(cancel.metadata()).containsEntry("session_id", "sess-90").containsEntry("user_id", "user-90");
            assertThat(cancel.recordedTrajectory().toolSteps()).singleElement().satisfies(step -> {
                assertThat(step.call()).isEqualTo(new ToolCall("cancel_order", Map.of("order_id", 77)));
                assertThat(step.result()).isEqualTo("{\"status\":\"cancelled\",\"refund\":\"24.90 EUR\"}");
            });
            assertThat(cancel.recordedTrajectory().modelSteps()).extracting(step -> step.tokensIn())
                    .containsExactly(350L, 402L);
            assertThat(cancel.recordedSpans()).filteredOn(TraceSpan::isRoot).singleElement()
                    .satisfies(root -> assertThat(root.name()).isEqualTo("cancel-agent"));
        });
        assertThat(traces.get(0).error()).isEqualTo("support.v2.langfuse.jsonl:4: observation 0000000000000009 has "
                + "no traceId: an observation outside a trace is not read as a case");
        assertThat(traces.get(2).error()).isEqualTo("support.v2.langfuse.jsonl:3: observation f3b2c4d5e6f70802: the "
                + "time must be ISO 8601 with its offset, found '2026-12-05 11:05:00.2'");
    }

    @Test
    void observationsWithoutTheirRootAreAnErrorNamingTheTrace() {
        String child = "{\"id\": \"o2\", \"traceId\": \"t-9\", \"type\": \"SPAN\", \"parentObservationId\": "
                + "\"o1\", \"startTime\": \"2026-12-05T10:00:00Z\"}";

        List<ReadTrace> traces = read(TraceReader.langfuse("o.langfuse.json", new StringReader("{\"data\": ["
                + child + ", " + child.replace("\"startTime\": \"2026-12-05T10:00:00Z\"", "\"startTime\": null")
                        .replace("o2", "o3") + "], \"meta\": {\"page\": 1, \"limit\": 50, \"totalItems\": 2, "
                + "\"totalPages\": 1}}")));

        assertThat(traces).singleElement().satisfies(trace -> assertThat(trace.error()).isEqualTo(
                "o.langfuse.json:1: observation o3 of trace t-9 has no startTime"));
        assertThat(read(TraceReader.langfuse("o.langfuse.json", new StringReader("[" + child + "]"))))
                .singleElement().satisfies(trace -> assertThat(trace.error()).startsWith("o.langfuse.json:1: trace "
                        + LangfuseReader.hex("t-9", 16) + " has no root span"));
    }

    @Test
    void hostileTracesAreReadWithoutLoopingAndAnObservationTwiceOnceOrAsAnError() {
        String nested = "[".repeat(900) + "]".repeat(900);
        String hostile = "{\"id\": \"t\\u0000\\u001b[31m\", \"timestamp\": \"2026-12-05T10:00:00Z\", \"input\": "
                + nested + ", \"output\": \"\\ufffe\\ud800\", \"observations\": ["
                + "{\"id\": \"a\", \"parentObservationId\": \"b\", \"type\": \"TOOL\", \"name\": \"x\", "
                + "\"startTime\": \"2026-12-05T10:00:01Z\"}, "
                + "{\"id\": \"b\", \"parentObservationId\": \"a\", \"type\": \"TOOL\", \"name\": \"x\", "
                + "\"startTime\": \"2026-12-05T10:00:01Z\"}, "
                + "{\"id\": \"b\", \"parentObservationId\": \"a\", \"type\": \"TOOL\", \"name\": \"x\", "
                + "\"startTime\": \"2026-12-05T10:00:01Z\"}, "
                + "{\"id\": \"c\", \"type\": \"WHATEVER\", \"startTime\": \"2026-12-05T10:00:02Z\"}]}";
        String conflicting = hostile.replace("\"c\", \"type\": \"WHATEVER\"", "\"a\", \"type\": \"WHATEVER\"");
        String ids = "{\"id\": \"t2\", \"timestamp\": \"2026-12-05T10:00:00Z\", \"output\": \"ok\", "
                + "\"observations\": [\"o1\", \"o2\"]}";

        List<ReadTrace> traces = read(TraceReader.langfuseLines("h.langfuse.jsonl", new StringReader(hostile + "\n"
                + ids + "\n" + conflicting)));

        assertThat(traces.get(0).evalCase()).satisfies(trace -> {
            assertThat(trace.recordedSpans()).hasSize(4);
            assertThat(trace.recordedTrajectory().toolCalls()).hasSize(2);
            assertThat(trace.recordedOutput()).contains("\ufffe\ud800");
        });
        assertThat(traces.get(1).evalCase().recordedOutput()).contains("ok");
        assertThat(traces.get(1).evalCase().recordedSpans()).hasSize(1);
        assertThat(traces.get(2).error()).isEqualTo("h.langfuse.jsonl:3: observation a comes twice in trace "
                + "t??[31m with different content; an observation id is unique in its trace");
    }

    private static Reader resource(String name) {
        return new InputStreamReader(LangfuseReaderTest.class.getResourceAsStream(
                "/dev/agentarena/junit/engine/fixtures/traces/" + name), StandardCharsets.UTF_8);
    }

    private static List<ReadTrace> read(TraceReader reader) {
        List<ReadTrace> traces = new ArrayList<>();
        reader.forEachRemaining(traces::add);
        return traces;
    }
}
