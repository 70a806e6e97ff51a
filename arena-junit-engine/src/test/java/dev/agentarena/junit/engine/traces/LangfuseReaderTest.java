package dev.agentarena.junit.engine.traces;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.model.ToolCall;

/**
 * Langfuse's trace export (a trace with its observations, as its API returns it) as cases: generations, tools and
 * retrievers in the GenAI conventions, the case named by the Langfuse trace id, errors naming file, line and trace.
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
        assertThat(traces.get(2).error()).isEqualTo("t.langfuse.json:3: a Langfuse trace needs an 'id'");
    }

    private static List<ReadTrace> read(TraceReader reader) {
        List<ReadTrace> traces = new ArrayList<>();
        reader.forEachRemaining(traces::add);
        return traces;
    }
}
