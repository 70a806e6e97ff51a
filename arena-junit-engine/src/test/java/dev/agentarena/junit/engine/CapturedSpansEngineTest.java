package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.fixtures.tracing.AppCallsSpansFixture;
import dev.agentarena.junit.engine.fixtures.tracing.GlobalSpansFixture;
import dev.agentarena.junit.engine.fixtures.tracing.OwnSdkSpansFixture;
import dev.agentarena.junit.engine.results.ResultLineCodec;
import io.opentelemetry.api.GlobalOpenTelemetry;

/**
 * The application's OpenTelemetry spans captured into the case that ran them, with no code in the eval: through the
 * global OpenTelemetry the engine sets, and through an SDK of the application's to which the test added the
 * {@code CaseSpanProcessor}; on threads of the case, across cases running at once, and bounded.
 */
class CapturedSpansEngineTest {

    @TempDir
    Path output;

    /**
     * As at the start of a JVM: another test may have set the global OpenTelemetry (or asked for it, which sets a
     * no-op one); the engine sets its own at the start of the next run.
     */
    @BeforeEach
    void noGlobalOpenTelemetry() {
        GlobalOpenTelemetry.resetForTest();
    }

    @Test
    void theGlobalSdksSpansAreTheCasesWithTheirWorkerThreadsSpan() {
        EngineRun run = global(output);

        run.assertNode("left", "spans", "passed",
                "spans [chat gpt-4o<answer left, worker left<answer left, answer left<-]");
        run.assertNode("right", "spans", "passed",
                "spans [chat gpt-4o<answer right, worker right<answer right, answer right<-]");
    }

    @Test
    void aCaseWithoutSpansHasNone() {
        EngineRun run = global(output);

        run.assertNode("quiet", "spans", "failed", "spans []");
    }

    @Test
    void leftAtItsDefaultARunThatDoesNotTraceLeavesTheGlobalOpenTelemetryUnset() {
        EngineRun run = new EngineRun(output).execute(GlobalSpansFixture.class);

        run.assertNode("left", "spans", "failed", "spans []");
        // the fixture's get() found none set, so OpenTelemetry's no-op answered it: nothing records
        assertThat(GlobalOpenTelemetry.getTracer("check").spanBuilder("check").startSpan().isRecording()).isFalse();
    }

    @Test
    void aRunThatExportsItsOwnSpansStillLeavesTheGlobalOpenTelemetryToTheApplication() {
        EngineRun run = new EngineRun(output).with(Constants.TRACING_ENABLED, "true")
                .with("otel.exporter.otlp.endpoint", "http://127.0.0.1:9")
                .with("otel.exporter.otlp.protocol", "http/protobuf").execute(GlobalSpansFixture.class);

        run.assertNode("left", "spans", "failed", "spans []");
        assertThat(GlobalOpenTelemetry.getTracer("check").spanBuilder("check").startSpan().isRecording()).isFalse();
    }

    /** A run of the global fixture with the engine's capturing global asked for. */
    private static EngineRun global(Path output) {
        return new EngineRun(output).with(Constants.TRACING_CAPTURE, "true").execute(GlobalSpansFixture.class);
    }

    @Test
    void theAppsOwnModelToolAndRetrievalSpansBecomeTheTrajectoryAndPassagesItsTaskDidNotHandBack() {
        EngineRun run = new EngineRun(output).execute(AppCallsSpansFixture.class);

        run.assertNode("app", "seen", "passed",
                "models [gpt-4o, gpt-4o], tools [lookup_order], passages [doc-7, doc-9]");
        run.assertNode("own", "seen", "passed", "models [gpt-4o, gpt-4o], tools [lookup_order], passages [mine]");
    }

    @Test
    void captureOffCapturesNothing() {
        EngineRun run = new EngineRun(output).with(Constants.TRACING_CAPTURE, "false")
                .execute(GlobalSpansFixture.class);

        JsonNode line = run.assertNode("failing", "spans", "failed", "spans []");
        assertThat(line.get("metrics").has("spans_dropped")).isFalse();
    }

    @Test
    void anSdkOfTheApplicationsCapturesWithTheProcessorAdded() {
        EngineRun run = new EngineRun(output).execute(OwnSdkSpansFixture.class);

        run.assertNode("tool", "spans", "passed", "spans [execute_tool lookup_order<-]");
    }

    @Test
    void aCaseKeepsAtMostTheLimitAndCountsTheRest() {
        EngineRun run = new EngineRun(output).with(Constants.TRACING_CAPTURE_MAX_SPANS, "50")
                .execute(OwnSdkSpansFixture.class);

        JsonNode line = run.assertNode("many", "spans", "passed", "spans [step 0<-, step 1<-");
        assertThat(line.get("reason").asText()).contains("step 49<-]").doesNotContain("step 50<");
        assertThat(line.get("metrics").get("spans_dropped").asInt()).isEqualTo(OwnSdkSpansFixture.MANY - 50);
    }

    @Test
    void aSpanIsInTheResultsLineWithItsIdsTypesAndEventsAndReadsBack() throws Exception {
        EngineRun run = new EngineRun(output).execute(OwnSdkSpansFixture.class);

        JsonNode line = run.line("tool", "spans");
        JsonNode span = line.get("spans").get(0);
        assertThat(span.get("trace_id").asText()).matches("[0-9a-f]{32}");
        assertThat(span.get("span_id").asText()).matches("[0-9a-f]{16}");
        assertThat(span.get("parent_span_id").asText()).isEmpty();
        assertThat(span.get("name").asText()).isEqualTo("execute_tool lookup_order");
        assertThat(span.get("kind").asText()).isEqualTo("INTERNAL");
        assertThat(span.get("status").asText()).isEqualTo("UNSET");
        assertThat(span.get("end_epoch_nanos").asLong()).isGreaterThanOrEqualTo(span.get("start_epoch_nanos")
                .asLong());
        assertThat(span.get("attributes").get("gen_ai.tool.call.id").asText()).isEqualTo("call-1");
        assertThat(span.get("events").get(0).get("name").asText()).isEqualTo("retry");
        assertThat(ResultLineCodec.read(line.toString()).spans()).isEqualTo(line.get("spans"));
    }

    @Test
    void aSpanStillOpenWhenTheCaseEndsIsCountedNotKept() {
        EngineRun run = new EngineRun(output).execute(OwnSdkSpansFixture.class);

        JsonNode line = run.assertNode("open", "spans", "passed", "spans [closed<-]");
        assertThat(line.get("metrics").get("spans_unfinished").asInt()).isEqualTo(1);
        OwnSdkSpansFixture.LEFT_OPEN.end();
    }

    @Test
    void controlCharactersStayAndAMegabyteAttributeIsCutInTheLineAndKeptWhole() throws Exception {
        EngineRun run = new EngineRun(output).execute(OwnSdkSpansFixture.class);

        assertThat(run.line("control", "spans").get("spans").get(0).get("name").asText())
                .isEqualTo(OwnSdkSpansFixture.CONTROL);
        JsonNode huge = run.assertNode("huge", "spans", "passed", "spans [retrieve<-]");
        assertThat(huge.get("spans").get(0).get("attributes").get("gen_ai.prompt").asText())
                .hasSizeLessThan(5000).contains("the whole text is in");
        JsonNode whole = new ObjectMapper().readTree(output.resolve(huge.get("spans_file").asText()).toFile());
        assertThat(whole.get(0).get("attributes").get("gen_ai.prompt").asText()).isEqualTo(OwnSdkSpansFixture.HUGE);
    }

    @Test
    void allureShowsEachSpanAsACompactRowUnderItsParent() {
        InMemoryAllure allure = new InMemoryAllure();
        allure.around(() -> global(output));

        assertThat(allure.attachments()).anySatisfy(text -> assertThat(text)
                .containsPattern("(?m)^  chat gpt-4o  \\d+\\.\\d{3} ms  ERROR: rate limited  "
                        + "gen_ai.operation.name=chat gen_ai.usage.input_tokens=12$")
                .containsPattern("(?m)^answer failing  \\d+\\.\\d{3} ms  UNSET$"));
    }

    @Test
    void theReportShowsTheSpansAsRowsWrittenDuringTheRunOrStreamedFromTheResults(@TempDir Path previous)
            throws Exception {
        global(previous);
        new EngineRun(output).with(Constants.TRACING_CAPTURE, "true")
                .with(Constants.REPORT_COMPARE_TO, previous.resolve("results.jsonl").toString())
                .execute(GlobalSpansFixture.class);

        for (Path report : List.of(previous.resolve("report.html"), output.resolve("report.html"))) {
            assertThat(Files.readString(report)).as("%s", report)
                    .containsPattern("\\[1,\"chat gpt-4o\",\"\\d+\\.\\d{3} ms\",\"ERROR: rate limited\","
                            + "\"gen_ai.operation.name=chat gen_ai.usage.input_tokens=12\"\\]")
                    .containsPattern("\\[0,\"answer left\",\"\\d+\\.\\d{3} ms\",\"UNSET\",\"\"\\]");
        }
    }

    @Test
    void aSecretInASpanIsMasked() {
        EngineRun run = new EngineRun(output).with(Constants.REDACT_ENV, "ARENA_TEST_CANARY")
                .execute(OwnSdkSpansFixture.class);

        JsonNode span = run.line("secret", "spans").get("spans").get(0);
        assertThat(span.get("name").asText()).isEqualTo("call [REDACTED]");
        assertThat(span.get("attributes").get("http.request.header.authorization").asText())
                .isEqualTo("[REDACTED]");
    }
}
