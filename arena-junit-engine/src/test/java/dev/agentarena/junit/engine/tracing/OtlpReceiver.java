package dev.agentarena.junit.engine.tracing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import com.sun.net.httpserver.HttpServer;

import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCalls;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

/**
 * An OTLP trace receiver in the test's JVM, written from the protocol, not from the engine: OTLP/HTTP (protobuf
 * POSTed to {@code /v1/traces} of a JDK HttpServer) or OTLP/gRPC (the collector's {@code TraceService/Export} on a
 * Netty server), both decoding the exporter's messages with opentelemetry-proto. It keeps every request it got.
 */
public final class OtlpReceiver implements AutoCloseable {

    private static final String SERVICE = "opentelemetry.proto.collector.trace.v1.TraceService";

    private final List<ExportTraceServiceRequest> requests = new ArrayList<>();
    /** Whether the requests are kept, or only their spans counted (a benchmark's receiver, as a collector's). */
    private final boolean keeps;
    private long counted;
    private final String endpoint;
    private final String protocol;
    private final AutoCloseable server;

    private OtlpReceiver(String endpoint, String protocol, AutoCloseable server, boolean keeps) {
        this.keeps = keeps;
        this.endpoint = endpoint;
        this.protocol = protocol;
        this.server = server;
    }

    /** A receiver of OTLP over HTTP with protobuf bodies, on a loopback port. */
    public static OtlpReceiver http() {
        return http(true);
    }

    /** A receiver of OTLP over HTTP that decodes each request and only counts its spans ({@link #counted}). */
    public static OtlpReceiver httpCounting() {
        return http(false);
    }

    private static OtlpReceiver http(boolean keeps) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            OtlpReceiver receiver = new OtlpReceiver("http://127.0.0.1:" + server.getAddress().getPort(),
                    "http/protobuf", () -> server.stop(0), keeps);
            server.createContext("/v1/traces", exchange -> {
                try (InputStream body = exchange.getRequestBody()) {
                    receiver.received(ExportTraceServiceRequest.parseFrom(body.readAllBytes()));
                }
                byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
                exchange.getResponseBody().write(answer);
                exchange.close();
            });
            server.start();
            return receiver;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A receiver of OTLP over gRPC, on a loopback port. */
    public static OtlpReceiver grpc() {
        MethodDescriptor<ExportTraceServiceRequest, ExportTraceServiceResponse> export = MethodDescriptor
                .<ExportTraceServiceRequest, ExportTraceServiceResponse>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "Export"))
                .setRequestMarshaller(ProtoUtils.marshaller(ExportTraceServiceRequest.getDefaultInstance()))
                .setResponseMarshaller(ProtoUtils.marshaller(ExportTraceServiceResponse.getDefaultInstance()))
                .build();
        OtlpReceiver[] self = new OtlpReceiver[1];
        ServerServiceDefinition service = ServerServiceDefinition.builder(SERVICE)
                .addMethod(export, ServerCalls.asyncUnaryCall((request, response) -> {
                    self[0].received(request);
                    response.onNext(ExportTraceServiceResponse.getDefaultInstance());
                    response.onCompleted();
                }))
                .build();
        try {
            Server server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .addService(service).build().start();
            self[0] = new OtlpReceiver("http://127.0.0.1:" + server.getPort(), "grpc", server::shutdownNow, true);
            return self[0];
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private synchronized void received(ExportTraceServiceRequest request) {
        for (ResourceSpans resource : request.getResourceSpansList()) {
            for (ScopeSpans scope : resource.getScopeSpansList()) {
                counted += scope.getSpansCount();
            }
        }
        if (keeps) {
            requests.add(request);
        }
    }

    /** How many spans were received so far. */
    public synchronized long counted() {
        return counted;
    }

    /** The base endpoint ({@code OTEL_EXPORTER_OTLP_ENDPOINT}). */
    public String endpoint() {
        return endpoint;
    }

    /** The protocol ({@code OTEL_EXPORTER_OTLP_PROTOCOL}). */
    public String protocol() {
        return protocol;
    }

    /** Every request received so far. */
    public synchronized List<ExportTraceServiceRequest> requests() {
        return List.copyOf(requests);
    }

    /** Every span received so far, in the order they came. */
    public synchronized List<Span> spans() {
        List<Span> spans = new ArrayList<>();
        for (ExportTraceServiceRequest request : requests) {
            for (ResourceSpans resource : request.getResourceSpansList()) {
                for (ScopeSpans scope : resource.getScopeSpansList()) {
                    spans.addAll(scope.getSpansList());
                }
            }
        }
        return spans;
    }

    @Override
    public void close() throws Exception {
        server.close();
    }
}
