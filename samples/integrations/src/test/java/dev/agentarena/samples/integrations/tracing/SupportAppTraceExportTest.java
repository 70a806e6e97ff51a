package dev.agentarena.samples.integrations.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.Test;
import org.springframework.ai.tool.observation.ToolCallingContentObservationFilter;

/**
 * Produces {@code samples/tracing/src/test/resources/traces/spring-ai-support.otlp.jsonl}, the production-trace
 * export the tracing sample reads as a dataset, and checks its shape. {@link SupportDeskApp} answers five customer
 * conversations, traced as a Spring Boot app with {@code micrometer-tracing-bridge-otel} traces: Spring AI's
 * observations become OpenTelemetry spans through Micrometer's bridge, and the SDK exports them as the OTLP file
 * exporter does, one {@code ExportTraceServiceRequest} in OTLP JSON per line (here a batch per conversation). The file is
 * written to {@code target/} on every build; {@code -Dtraces.export=<path>} writes it there instead, which is how the
 * committed one was made.
 */
class SupportAppTraceExportTest {

    /** The customers' messages, one conversation each. */
    static final Map<String, String> CONVERSATIONS = Map.of(
            "conv-order-status", "Where is my order 1042? It has been a week.",
            "conv-lost-parcel", "My parcel 2210 never arrived, I want my money back.",
            "conv-returns", "Can I still return the shoes that were delivered ten days ago?",
            "conv-shipping", "Is shipping free for an order of 30 euros?",
            "conv-manager", "I want to talk to a manager about order 3301, nobody answers my emails.");

    @Test
    void fiveConversationsAreFiveTracesOfChatClientRetrievalModelAndToolSpans() throws Exception {
        Path file = Path.of(System.getProperty("traces.export", "target/traces/spring-ai-support.otlp.jsonl"));
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            export(out);
        }

        ObjectMapper json = new ObjectMapper();
        List<JsonNode> lines = Files.readAllLines(file).stream().map(line -> read(json, line)).toList();
        assertThat(lines).hasSize(CONVERSATIONS.size());
        List<JsonNode> spans = lines.stream()
                .flatMap(line -> line.path("resourceSpans").findValues("spans").stream())
                .flatMap(array -> java.util.stream.StreamSupport.stream(array.spliterator(), false)).toList();
        assertThat(spans.stream().map(s -> s.path("traceId").asText()).distinct()).hasSize(CONVERSATIONS.size());
        assertThat(spans.stream().filter(s -> s.path("parentSpanId").asText().isEmpty())
                .map(s -> s.path("name").asText())).hasSize(CONVERSATIONS.size()).allMatch(n -> n.contains("chat_client"));
        Map<String, Long> byKind = spans.stream().collect(Collectors.groupingBy(
                s -> attribute(s, "spring.ai.kind").isEmpty() ? attribute(s, "gen_ai.operation.name")
                        : attribute(s, "spring.ai.kind"), Collectors.counting()));
        assertThat(byKind).containsOnlyKeys("chat_client", "advisor", "vector_store", "chat", "tool_call")
                .containsEntry("chat_client", 5L).containsEntry("vector_store", 5L).containsEntry("tool_call", 4L);
        assertThat(spans).anyMatch(s -> attribute(s, "spring.ai.tool.call.arguments").contains("2210"))
                .anyMatch(s -> attribute(s, "retrieval.documents.0.document.id").startsWith("faq-"))
                .anyMatch(s -> attribute(s, "gen_ai.output.messages").contains("refund of order 2210"))
                .anyMatch(s -> attribute(s, "gen_ai.output.messages").contains("From our help pages: Shipping is free"));
    }

    /** Runs the conversations with the app traced and writes each one's spans as one line. */
    static void export(OutputStream out) {
        JsonLines lines = new JsonLines(out);
        SdkTracerProvider tracerProvider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(
                        AttributeKey.stringKey("service.name"), "spring-ai-support",
                        AttributeKey.stringKey("service.version"), "1.4.0"))))
                .addSpanProcessor(SimpleSpanProcessor.create(lines))
                .build();
        try (OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(tracerProvider).build()) {
            OtelCurrentTraceContext current = new OtelCurrentTraceContext();
            OtelTracer tracer = new OtelTracer(sdk.getTracer("org.springframework.boot"), current, event -> {
            });
            ObservationRegistry observations = ObservationRegistry.create();
            SupportDeskApp app = new SupportDeskApp(observations, () -> observations.observationConfig()
                    .observationFilter(new ToolCallingContentObservationFilter())
                    .observationFilter(new ContentOnSpans())
                    .observationHandler(new DefaultTracingObservationHandler(tracer)));
            CONVERSATIONS.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(conversation -> {
                app.answer(conversation.getKey(), conversation.getValue());
                lines.writeLine();
            });
        }
    }

    private static String attribute(JsonNode span, String key) {
        for (JsonNode attribute : span.path("attributes")) {
            if (attribute.path("key").asText().equals(key)) {
                return attribute.path("value").path("stringValue").asText();
            }
        }
        return "";
    }

    private static JsonNode read(ObjectMapper json, String line) {
        try {
            return json.readTree(line);
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * What the OTLP file exporter writes, a batch per line: the spans that ended since the last line, as one OTLP JSON
     * {@code ExportTraceServiceRequest}. The spans are exported as each ends ({@code SimpleSpanProcessor}) and written
     * when the conversation is over, so each line is one conversation, whatever the machine's timing.
     */
    private static final class JsonLines implements SpanExporter {

        private final OutputStream out;
        private final List<SpanData> batch = new ArrayList<>();

        JsonLines(OutputStream out) {
            this.out = out;
        }

        @Override
        public synchronized CompletableResultCode export(Collection<SpanData> spans) {
            batch.addAll(spans);
            return CompletableResultCode.ofSuccess();
        }

        synchronized void writeLine() {
            try {
                TraceRequestMarshaler.create(batch).writeJsonTo(out);
                out.write('\n');
                out.flush();
                batch.clear();
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
