package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.traces.VendorExportsFixture;

/**
 * Phoenix's and Langfuse's own exports, shaped like their APIs' answers, as datasets: each trace a case replayed
 * with its recorded answer, tool calls and passages; a bad span, observation or line an error case naming the file,
 * the line and the span or observation, the other cases still run.
 */
class VendorTraceExportsEngineTest {

    @TempDir
    Path output;

    private EngineRun run;

    @BeforeEach
    void runTheExports() {
        run = new EngineRun(output).execute(VendorExportsFixture.class);
    }

    @Test
    void aPhoenixSpansPageIsReplayedWithTheToolArgumentsPhoenixFlattenedAndAFailedCallIsAnError() {
        run.assertNode("6f1d2c3b4a5968778695a4b3c2d1e0f1", "replayed", "passed", "input=Where is my order 42? "
                + "output=Your order 42 shipped on Monday. The refund check failed, so I opened a ticket. "
                + "tools=[lookup_order{order_id=42},refund_status{order_id=7, items=[{sku=A1, qty=2}]}] "
                + "passages=[1:doc-ship,2:doc-refund] spans=6 steps=4");
        run.assertNode("7a2e3f4051627384958a6b7c8d9e0f12", "replayed", "error",
                "case '7a2e3f4051627384958a6b7c8d9e0f12' has no recorded output");
    }

    @Test
    void phoenixOtlpv1PagesAreOneTraceAcrossLinesAndTheirBadLinesAreErrors() {
        run.assertNode("8b3f405162738495a6b7c8d9e0f1a2b3", "replayed", "passed", "input=What is the refund window? "
                + "output=Refunds are accepted within 30 days of delivery. tools=[] "
                + "passages=[1:kb-refunds,2:kb-returns] spans=3 steps=1");
        run.assertNode("support.otlpv1.phoenix.jsonl:3:zz00000000000009", "replayed", "error",
                "support.otlpv1.phoenix.jsonl:3: span zz00000000000009 has a traceId that is not 32 hex digits: "
                        + "'9c4f'");
        run.assertNode("support.otlpv1.phoenix.jsonl:4", "replayed", "error",
                "support.otlpv1.phoenix.jsonl:4: malformed JSON");
    }

    @Test
    void aLangfuseTraceSavedAsTheApiReturnsItIsReplayedWithItsFailedTool() {
        run.assertNode("b7c1e0a2-5d4f-4c3b-9a8e-1f2d3c4b5a69", "replayed", "passed",
                "input=Can I return the damaged kettle? output=Yes: damaged items can be returned within 30 days; "
                        + "I opened return R-981. tools=[open_return{order_id=A-1001, reason=damaged},"
                        + "open_return{order_id=A-1001, reason=damaged}] passages=[1:passage-1,2:kb-42] spans=9 "
                        + "steps=4");
        assertThat(run.line("b7c1e0a2-5d4f-4c3b-9a8e-1f2d3c4b5a69", "tool_success").get("score").asDouble())
                .isEqualTo(0.5);
    }

    @Test
    void langfuseV2ObservationPagesAreGroupedIntoTracesAndTheirBadObservationsNamed() {
        run.assertNode("4f8c2a1e9b7d4c3a8e6f1b2d3c4a5e6f", "replayed", "passed", "input=Cancel order 77 please "
                + "output=Order 77 is cancelled; the refund of 24.90 EUR is on its way. "
                + "tools=[cancel_order{order_id=77}] passages=[] spans=4 steps=3");
        run.assertNode("5d9e3b2f0a8c4d4b9f7a2c3e4d5b6f70", "replayed", "error", "support.v2.langfuse.jsonl:3: "
                + "observation f3b2c4d5e6f70802: the time must be ISO 8601 with its offset, found "
                + "'2026-12-05 11:05:00.2'");
        run.assertNode("support.v2.langfuse.jsonl:4", "replayed", "error",
                "support.v2.langfuse.jsonl:4: observation 0000000000000009 has no traceId");
        assertThat(run.lines().stream().map(line -> line.get("case_id").asText()).distinct()).hasSize(9);
    }
}
