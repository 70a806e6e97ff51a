package dev.agentarena.junit.engine.integration;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An OpenAI-compatible Chat Completions server on loopback whose answer is a function of the request, so that
 * concurrent calls get the answer their own question asks for; it records every request. The chat libraries' real
 * OpenAI clients (LangChain4j's {@code OpenAiChatModel}, Spring AI's {@code OpenAiChatModel}) and the engine's
 * {@code openai:} connector all talk to it.
 */
public final class LoopbackOpenAi implements AutoCloseable {

    /** What the server answers: a response body, and its status. */
    public record Reply(int status, String body) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The request bodies, parsed, in arrival order. */
    public final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    /** The {@code Authorization} headers, in arrival order. */
    public final List<String> authorizations = new CopyOnWriteArrayList<>();

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Function<JsonNode, Reply> replies;

    private LoopbackOpenAi(Function<JsonNode, Reply> replies) throws IOException {
        this.replies = replies;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** A server that answers each request with {@code replies} of its parsed body. */
    public static LoopbackOpenAi answering(Function<JsonNode, Reply> replies) throws IOException {
        return new LoopbackOpenAi(replies);
    }

    /** The base URL with {@code /v1}, as LangChain4j and the engine's connector take it. */
    public String baseUrl() {
        return root() + "/v1";
    }

    /** The base URL without {@code /v1}, as Spring AI takes it. */
    public String root() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            requests.add(request);
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            Reply reply;
            if (!exchange.getRequestURI().getPath().endsWith("/chat/completions")) {
                reply = new Reply(404, "{\"error\":{\"message\":\"no such path\"}}");
            }
            else {
                reply = replies.apply(request);
            }
            byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(reply.status(), bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** The text of the request's last user message. */
    public static String lastUserText(JsonNode request) {
        JsonNode messages = request.get("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).path("role").asText().equals("user")) {
                JsonNode content = messages.get(i).get("content");
                return content.isTextual() ? content.asText() : content.toString();
            }
        }
        return "";
    }

    /** A 200 answer with this text, reporting this model and these token counts. */
    public static Reply text(String text, String model, int promptTokens, int completionTokens) {
        ObjectNode body = JSON.createObjectNode();
        body.put("id", "chatcmpl-loopback").put("object", "chat.completion").put("created", 1_700_000_000L)
                .put("model", model);
        ObjectNode choice = body.putArray("choices").addObject();
        choice.put("index", 0).put("finish_reason", "stop");
        choice.putObject("message").put("role", "assistant").put("content", text);
        body.putObject("usage").put("prompt_tokens", promptTokens).put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
        return new Reply(200, body.toString());
    }

    /** A 200 answer calling one tool, reporting this model and these token counts. */
    public static Reply toolCall(String name, String argumentsJson, String model, int promptTokens,
            int completionTokens) {
        ObjectNode body = JSON.createObjectNode();
        body.put("id", "chatcmpl-loopback").put("object", "chat.completion").put("created", 1_700_000_000L)
                .put("model", model);
        ObjectNode choice = body.putArray("choices").addObject();
        choice.put("index", 0).put("finish_reason", "tool_calls");
        ObjectNode message = choice.putObject("message");
        message.put("role", "assistant").putNull("content");
        ObjectNode call = message.putArray("tool_calls").addObject();
        call.put("id", "call_loopback_1").put("type", "function");
        call.putObject("function").put("name", name).put("arguments", argumentsJson);
        body.putObject("usage").put("prompt_tokens", promptTokens).put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
        return new Reply(200, body.toString());
    }

    /** An error answer. */
    public static Reply error(int status, String message) {
        return new Reply(status, "{\"error\":{\"message\":\"" + message + "\",\"type\":\"server_error\"}}");
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
