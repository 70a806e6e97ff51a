package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;

import dev.agentarena.junit.engine.fixtures.tracing.TracedAgentFixture;
import dev.agentarena.junit.engine.tracing.OtlpReceiver;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;

/**
 * A run exported as OpenTelemetry spans through the real OTLP exporter to a receiver in this JVM, over HTTP and gRPC:
 * the span tree (eval, case per model, a model call and tool execution per step), their GenAI attributes, a
 * {@code gen_ai.evaluation.result} event per score, content only when asked for and masked; nothing when off, and
 * an exporter that is down costs one warning, not the run.
 */
class TracingEngineTest {

    @TempDir
    Path output;

    @Test
    void aRunIsExportedOverOtlpHttpAsEvalCaseModelCallAndToolSpans() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.http()) {
            run(receiver, Map.of());
            assertSpanTree(receiver.spans());
            assertThat(receiver.requests().get(0).getResourceSpans(0).getResource().getAttributesList())
                    .as("the default service name").anySatisfy(attribute -> {
                        assertThat(attribute.getKey()).isEqualTo("service.name");
                        assertThat(attribute.getValue().getStringValue()).isEqualTo("agent-arena");
                    });
        }
    }

    @Test
    void aRunIsExportedOverOtlpGrpcTheSame() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.grpc()) {
            run(receiver, Map.of());
            assertSpanTree(receiver.spans());
        }
    }

    @Test
    void promptsAndOutputsAreExportedOnlyWhenAskedForAndMasked() throws Exception {
        String canary = System.getenv("ARENA_CANARY_SECRET");
        try (OtlpReceiver off = OtlpReceiver.http(); OtlpReceiver on = OtlpReceiver.http()) {
            run(off, Map.of());
            assertThat(off.spans()).allSatisfy(span -> assertThat(attributes(span)).doesNotContainKeys(
                    "gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.tool.call.result", "arena.case.output"));

            run(on, Map.of(Constants.TRACING_CAPTURE_CONTENT, "true"));
            Map<String, Span> spans = byName(on.spans().stream().filter(span -> attributes(span)
                    .getOrDefault("arena.case.id", "").equals("refund_42") || span.getName().startsWith("chat ")
                    || span.getName().startsWith("execute_tool ")).collect(Collectors.toList()));
            String firstCall = on.spans().stream().filter(span -> span.getName().equals("chat scripted"))
                    .map(span -> attributes(span).get("gen_ai.input.messages")).filter(text -> text.contains("refund"))
                    .findFirst().orElseThrow();
            assertThat(firstCall).startsWith("[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":")
                    .contains("Please refund order 42, key [REDACTED]").doesNotContain(canary);
            assertThat(attributes(spans.get("execute_tool lookup_order")).get("gen_ai.tool.call.result"))
                    .contains("late");
            assertThat(attributes(spans.get("case refund_42")).get("arena.case.output")).isEqualTo("Refunded order 42");
            assertThat(on.requests().stream().map(request -> request.toByteString().toStringUtf8()))
                    .as("the secret is in no span").noneMatch(bytes -> bytes.contains(canary));
        }
    }

    @Test
    void aHugeOutputOfControlCharactersIsExportedCutAtTheTextLimit() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.grpc()) {
            EngineRun run = new EngineRun(output).with("otel.exporter.otlp.endpoint", receiver.endpoint())
                    .with("otel.exporter.otlp.protocol", receiver.protocol())
                    .with(Constants.TRACING_CAPTURE_CONTENT, "true").with(Constants.OUTPUT_TEXT_LIMIT, "1000")
                    .execute(TracedAgentFixture.Hostile.class);
            assertThat(run.lines()).hasSize(2);
            Span hostile = byName(receiver.spans()).get("case hostile");
            assertThat(attributes(hostile).get("arena.case.output")).hasSizeLessThanOrEqualTo(1000).endsWith("…");
            JsonNode messages = new ObjectMapper().readTree(attributes(byName(receiver.spans()).get("chat scripted"))
                    .get("gen_ai.output.messages"));
            assertThat(messages.get(0).get("parts").get(0).get("content").asText()).hasSizeLessThanOrEqualTo(1000)
                    .startsWith("\u0000\u001b[31m");
        }
    }

    @Test
    void nothingIsExportedWhenTracingIsOff() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.http()) {
            EngineRun run = run(receiver, Map.of(Constants.TRACING_ENABLED, "false"));
            assertThat(receiver.requests()).isEmpty();
            assertThat(run.lines()).hasSize(6);
        }
    }

    @Test
    void anExporterThatIsDownIsOneWarningAndTheRunGoesOn() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream original = System.out;
        EngineRun run;
        System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
        try {
            run = new EngineRun(output).with(Constants.TRACING_ENABLED, "true")
                    .with("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + closedPort)
                    .with("otel.exporter.otlp.protocol", "http/protobuf")
                    .with("otel.bsp.max.export.batch.size", "2")
                    .execute(TracedAgentFixture.class);
        }
        finally {
            System.setOut(original);
        }
        assertThat(console.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains("the run's spans could not be exported")))
                .singleElement().asString().contains("127.0.0.1:" + closedPort);
        assertThat(run.lines()).hasSize(6);
        run.assertNode("refund_42", "mentions", "passed", "says Refunded");
    }

    private EngineRun run(OtlpReceiver receiver, Map<String, String> settings) {
        EngineRun run = new EngineRun(output.resolve(String.valueOf(receiver.hashCode())))
                .with("otel.exporter.otlp.endpoint", receiver.endpoint())
                .with("otel.exporter.otlp.protocol", receiver.protocol());
        settings.forEach(run::with);
        return run.execute(TracedAgentFixture.class);
    }

    /** The span tree of the fixture's run: what every protocol must deliver alike. */
    private static void assertSpanTree(List<Span> received) {
        List<Span> evals = received.stream().filter(span -> span.getParentSpanId().isEmpty())
                .collect(Collectors.toList());
        assertThat(evals).singleElement().satisfies(eval -> {
            assertThat(eval.getName()).isEqualTo("eval traced-agent");
            assertThat(attributes(eval)).containsEntry("arena.eval", "traced-agent");
        });
        ByteString evalId = evals.get(0).getSpanId();
        Map<String, Span> cases = received.stream().filter(span -> span.getParentSpanId().equals(evalId))
                .collect(Collectors.toMap(span -> attributes(span).get("arena.case.id"), Function.identity()));
        assertThat(cases).containsOnlyKeys("refund_42", "direct", "broken");
        assertThat(received).allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(evals.get(0).getTraceId()));

        Span refund = cases.get("refund_42");
        assertThat(refund.getName()).isEqualTo("case refund_42");
        assertThat(attributes(refund)).containsEntry("arena.model", "scripted").containsEntry("arena.eval",
                "traced-agent");
        List<Span> steps = received.stream().filter(span -> span.getParentSpanId().equals(refund.getSpanId()))
                .sorted((a, b) -> Long.compare(a.getStartTimeUnixNano(), b.getStartTimeUnixNano()))
                .collect(Collectors.toList());
        assertThat(steps).extracting(Span::getName).containsExactly("chat scripted", "execute_tool lookup_order",
                "chat scripted");
        assertThat(attributes(steps.get(0))).containsEntry("gen_ai.operation.name", "chat")
                .containsEntry("gen_ai.request.model", "scripted").containsEntry("gen_ai.usage.input_tokens", "20")
                .containsEntry("gen_ai.usage.output_tokens", "5").doesNotContainKey("gen_ai.input.messages");
        assertThat(steps.get(0).getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
        assertThat(attributes(steps.get(1))).containsEntry("gen_ai.operation.name", "execute_tool")
                .containsEntry("gen_ai.tool.name", "lookup_order").containsEntry("gen_ai.tool.call.id", "call_lookup");
        assertThat(attributes(steps.get(2))).containsEntry("gen_ai.usage.input_tokens", "30");
        assertThat(steps).allSatisfy(step -> assertThat(step.getStartTimeUnixNano())
                .isBetween(refund.getStartTimeUnixNano(), refund.getEndTimeUnixNano()));

        assertThat(refund.getEventsList()).extracting(Span.Event::getName)
                .containsOnly("gen_ai.evaluation.result").hasSize(2);
        Map<String, Map<String, String>> scores = refund.getEventsList().stream().map(TracingEngineTest::attributes)
                .collect(Collectors.toMap(event -> event.get("gen_ai.evaluation.name"), Function.identity()));
        assertThat(scores.get("mentions")).containsEntry("gen_ai.evaluation.score.value", "1.0")
                .containsEntry("gen_ai.evaluation.score.label", "pass")
                .containsEntry("gen_ai.evaluation.explanation", "says Refunded");
        assertThat(scores.get("brevity")).containsEntry("gen_ai.evaluation.score.value", "1.0");
        assertThat(refund.getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_UNSET);

        Span direct = cases.get("direct");
        assertThat(received.stream().filter(span -> span.getParentSpanId().equals(direct.getSpanId())))
                .extracting(Span::getName).containsExactly("chat scripted");
        assertThat(direct.getEventsList().stream().map(TracingEngineTest::attributes)
                .filter(event -> event.get("gen_ai.evaluation.name").equals("mentions")))
                .singleElement().satisfies(event -> assertThat(event)
                        .containsEntry("gen_ai.evaluation.score.label", "fail")
                        .containsEntry("gen_ai.evaluation.score.value", "0.0"));
        assertThat(direct.getStatus().getCode()).as("a low score is no error")
                .isEqualTo(Status.StatusCode.STATUS_CODE_UNSET);

        Span broken = cases.get("broken");
        assertThat(broken.getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
        assertThat(broken.getStatus().getMessage()).contains("the scorer broke");
        assertThat(broken.getEventsList().stream().map(TracingEngineTest::attributes)
                .filter(event -> event.get("gen_ai.evaluation.name").equals("mentions")))
                .singleElement().satisfies(event -> assertThat(event).containsEntry("arena.result.status", "error")
                        .doesNotContainKey("gen_ai.evaluation.score.value"));
    }

    private static Map<String, Span> byName(List<Span> spans) {
        return spans.stream().collect(Collectors.toMap(Span::getName, Function.identity(), (a, b) -> a));
    }

    static Map<String, String> attributes(Span span) {
        return values(span.getAttributesList());
    }

    static Map<String, String> attributes(Span.Event event) {
        return values(event.getAttributesList());
    }

    private static Map<String, String> values(List<KeyValue> attributes) {
        return attributes.stream().collect(Collectors.toMap(KeyValue::getKey, kv -> text(kv.getValue())));
    }

    private static String text(AnyValue value) {
        switch (value.getValueCase()) {
            case INT_VALUE:
                return String.valueOf(value.getIntValue());
            case DOUBLE_VALUE:
                return String.valueOf(value.getDoubleValue());
            case BOOL_VALUE:
                return String.valueOf(value.getBoolValue());
            case ARRAY_VALUE:
                return value.getArrayValue().getValuesList().stream().map(TracingEngineTest::text)
                        .collect(Collectors.joining(",", "[", "]"));
            default:
                return value.getStringValue();
        }
    }
}
