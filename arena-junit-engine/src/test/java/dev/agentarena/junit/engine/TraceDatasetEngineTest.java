package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.traces.TraceDatasetFixture;

/**
 * A trace export as a dataset: each trace a case, replayed by the {@code recorded} model with its output, trajectory,
 * passages and spans; a bad trace or line an error case naming the file, line and span, the others still run.
 */
class TraceDatasetEngineTest {

    private static final String SEMCONV = "0af7651916cd43dd8448eb211c80319c";

    @TempDir
    Path output;

    @Test
    void aGenAiTraceIsReplayedWithItsAnswerToolsPassagesAndSpans() {
        EngineRun run = new EngineRun(output).execute(TraceDatasetFixture.class);

        run.assertNode(SEMCONV, "replayed", "passed", "input=Where is my order 42? output=Your order 42 has shipped. "
                + "tools=[lookup_order{order_id=42}] passages=[1:doc-ship,2:doc-track] spans=5 steps=3");
        run.assertNode(SEMCONV, "tool_success", "passed", "");
    }

    @Test
    void anOpenInferenceTraceIsNamedByItsCaseIdAndItsFailedToolCounts() {
        EngineRun run = new EngineRun(output).execute(TraceDatasetFixture.class);

        run.assertNode("refund-policy", "replayed", "passed", "input=How long do refunds take? output=Refunds take up "
                + "to 30 days. tools=[refund_status{order_id=7}] passages=[1:doc-refund,2:doc-returns] spans=4");
        assertThat(run.line("refund-policy", "tool_success").get("score").asDouble()).isZero();
    }

    @Test
    void badSpansAndMalformedLinesAreErrorCasesNamingFileLineAndSpan() {
        EngineRun run = new EngineRun(output).execute(TraceDatasetFixture.class);

        run.assertNode("support.otlp.jsonl:3", "replayed", "error", "support.otlp.jsonl:3: malformed JSON");
        run.assertNode("5bf92f3577b34da6a3ce929d0e0e4737", "replayed", "error",
                "support.otlp.jsonl:5: span zz00000000000001 of trace 5bf92f3577b34da6a3ce929d0e0e4737 has a spanId "
                        + "that is not 16 hex digits");
        run.assertNode("6bf92f3577b34da6a3ce929d0e0e4738", "replayed", "error",
                "support.otlp.jsonl:6: span d000000000000001 of trace 6bf92f3577b34da6a3ce929d0e0e4738 ends before "
                        + "it starts");
        assertThat(run.lines()).extracting(line -> line.get("case_id").asText()).containsOnly(SEMCONV,
                "refund-policy", "support.otlp.jsonl:3", "5bf92f3577b34da6a3ce929d0e0e4737",
                "6bf92f3577b34da6a3ce929d0e0e4738");
    }
}
