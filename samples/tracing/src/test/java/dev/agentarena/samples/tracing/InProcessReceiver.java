package dev.agentarena.samples.tracing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

/**
 * Stands in for a tracing tool: an OTLP/HTTP receiver on a loopback port, started when the test run starts (a
 * launcher session listener, listed in {@code META-INF/services}), which points the run's exporter at itself with the
 * system property {@code otel.exporter.otlp.endpoint}. When the run ends it writes every span it received, one JSON
 * line each, to {@code target/otlp-received/spans.jsonl}, which {@code SpansReceivedIT} reads.
 */
public class InProcessReceiver implements LauncherSessionListener {

    static final Path RECEIVED = Path.of("target", "otlp-received", "spans.jsonl");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<Map<String, Object>> spans = new ArrayList<>();
    private HttpServer server;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/v1/traces", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                received(ExportTraceServiceRequest.parseFrom(body.readAllBytes()));
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        System.setProperty("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        server.stop(0);
        synchronized (spans) {
            if (spans.isEmpty()) {
                return;
            }
            try {
                Files.createDirectories(RECEIVED.getParent());
                try (Writer out = Files.newBufferedWriter(RECEIVED, StandardCharsets.UTF_8)) {
                    for (Map<String, Object> span : spans) {
                        out.write(JSON.writeValueAsString(span) + "\n");
                    }
                }
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void received(ExportTraceServiceRequest request) {
        synchronized (spans) {
            for (ResourceSpans resource : request.getResourceSpansList()) {
                for (ScopeSpans scope : resource.getScopeSpansList()) {
                    for (Span span : scope.getSpansList()) {
                        Map<String, Object> line = new LinkedHashMap<>();
                        line.put("service", values(resource.getResource().getAttributesList()).get("service.name"));
                        line.put("name", span.getName());
                        line.put("span_id", hex(span.getSpanId().toByteArray()));
                        line.put("parent_span_id", hex(span.getParentSpanId().toByteArray()));
                        line.put("start", span.getStartTimeUnixNano());
                        line.put("attributes", values(span.getAttributesList()));
                        List<Map<String, Object>> events = new ArrayList<>();
                        for (Span.Event event : span.getEventsList()) {
                            events.add(Map.of("name", event.getName(), "attributes",
                                    values(event.getAttributesList())));
                        }
                        line.put("events", events);
                        spans.add(line);
                    }
                }
            }
        }
    }

    private static Map<String, Object> values(List<KeyValue> attributes) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (KeyValue attribute : attributes) {
            AnyValue value = attribute.getValue();
            values.put(attribute.getKey(), switch (value.getValueCase()) {
                case INT_VALUE -> value.getIntValue();
                case DOUBLE_VALUE -> value.getDoubleValue();
                case BOOL_VALUE -> value.getBoolValue();
                default -> value.getStringValue();
            });
        }
        return values;
    }

    private static String hex(byte[] bytes) {
        StringBuilder text = new StringBuilder();
        for (byte b : bytes) {
            text.append(String.format("%02x", b));
        }
        return text.toString();
    }
}
