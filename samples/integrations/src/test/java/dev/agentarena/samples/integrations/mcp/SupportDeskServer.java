package dev.agentarena.samples.integrations.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import reactor.core.publisher.Mono;

/**
 * The support desk's MCP server, as the team runs it beside its app: the tools {@code lookup_order},
 * {@code refund} and {@code escalate}, built with the official MCP Java SDK and served in process on loopback over
 * Streamable HTTP (the SDK's stateless server behind the JDK's HTTP server, no servlet container). The evals start it
 * on first need; a replay never does ({@link #starts()} counts the starts).
 */
public final class SupportDeskServer implements AutoCloseable {

    private static final AtomicInteger STARTS = new AtomicInteger();
    private static SupportDeskServer running;

    private final HttpServer http;
    private final McpStatelessSyncServer server;

    private SupportDeskServer() throws IOException {
        McpJsonMapper json = McpJsonMapper.getDefault();
        Transport transport = new Transport(json);
        server = McpServer.sync(transport).serverInfo("support-desk", "1.0.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(tool(json, "lookup_order", "Looks up the status of an order by its number", false,
                        arguments -> "Order " + arguments.get("orderId")
                                + " shipped on 2 May and arrives within 3 days."),
                        tool(json, "refund", "Starts the refund of an order by its number", false,
                                arguments -> "The refund of order " + arguments.get("orderId")
                                        + " is started; the money is back within 5 days."),
                        tool(json, "escalate", "Hands the conversation to a team lead, with the reason", true,
                                arguments -> "Ticket for order " + arguments.get("orderId") + " opened ("
                                        + arguments.get("reason") + "): a team lead calls within 24 hours."))
                .build();
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/mcp", transport::handle);
        http.start();
    }

    /** The server of this JVM, started on first call. */
    public static synchronized SupportDeskServer get() {
        if (running == null) {
            try {
                running = new SupportDeskServer();
            }
            catch (IOException e) {
                throw new UncheckedIOException("the support desk's MCP server did not start", e);
            }
            STARTS.incrementAndGet();
        }
        return running;
    }

    /** Stops the server of this JVM, if it runs. */
    public static synchronized void stop() {
        if (running != null) {
            running.close();
            running = null;
        }
    }

    /** How many times a server was started in this JVM. */
    public static int starts() {
        return STARTS.get();
    }

    /** Where the server listens: {@code http://127.0.0.1:<port>}, its endpoint {@code /mcp}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    @Override
    public void close() {
        http.stop(0);
        server.close();
    }

    private static SyncToolSpecification tool(McpJsonMapper json, String name, String description, boolean reason,
            Function<Map<String, Object>, String> answer) {
        String schema = "{\"type\":\"object\",\"properties\":{\"orderId\":{\"type\":\"integer\","
                + "\"description\":\"the order number\"}" + (reason ? ",\"reason\":{\"type\":\"string\","
                + "\"description\":\"why a person must take over\"}" : "") + "},\"required\":[\"orderId\""
                + (reason ? ",\"reason\"" : "") + "]}";
        return SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder().name(name).description(description).inputSchema(json, schema).build())
                .callHandler((context, request) -> McpSchema.CallToolResult.builder()
                        .addTextContent(answer.apply(request.arguments())).isError(false).build())
                .build();
    }

    /** Streamable HTTP, stateless: each POST is one JSON-RPC message, answered in the HTTP response. */
    private static final class Transport implements McpStatelessServerTransport {
        private final McpJsonMapper json;
        private volatile McpStatelessServerHandler handler;

        Transport(McpJsonMapper json) {
            this.json = json;
        }

        @Override
        public void setMcpHandler(McpStatelessServerHandler handler) {
            this.handler = handler;
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }

        void handle(HttpExchange exchange) throws IOException {
            try (exchange) {
                if (!exchange.getRequestMethod().equals("POST")) {
                    exchange.sendResponseHeaders(405, -1);
                    return;
                }
                String body;
                try (InputStream in = exchange.getRequestBody()) {
                    body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
                McpSchema.JSONRPCMessage message = McpSchema.deserializeJsonRpcMessage(json, body);
                if (message instanceof McpSchema.JSONRPCRequest request) {
                    byte[] bytes = json.writeValueAsBytes(handler.handleRequest(McpTransportContext.EMPTY, request)
                            .block());
                    exchange.getResponseHeaders().add("Content-Type", "application/json");
                    exchange.sendResponseHeaders(200, bytes.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(bytes);
                    }
                    return;
                }
                if (message instanceof McpSchema.JSONRPCNotification notification) {
                    handler.handleNotification(McpTransportContext.EMPTY, notification).block();
                }
                exchange.sendResponseHeaders(202, -1);
            }
        }
    }
}
