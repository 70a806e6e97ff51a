package dev.agentarena.samples.integrations.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.samples.integrations.langchain4j.replay.SupportBotEvalTest;

/**
 * Records {@code SupportBotEvalTest} through LangChain4j's real OpenAI client against an OpenAI-compatible server on
 * loopback, and checks that what it records is what the build replays from {@code src/test/resources}: the committed
 * recordings are the real client's. To make them again, run this test and copy
 * {@code target/it-recordings/support-bot/} over them.
 */
class LangChain4jLoopbackIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path COMMITTED = Paths.get("src/test/resources/arena-recordings/support-bot");

    private HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", this::complete);
        server.setExecutor(executor);
        server.start();
        System.setProperty("openai.base-url", "http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
        System.setProperty("openai.api-key", "sk-loopback");
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
        executor.shutdownNow();
        System.clearProperty("openai.base-url");
        System.clearProperty("openai.api-key");
    }

    private void complete(HttpExchange exchange) throws IOException {
        try (exchange) {
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            JsonNode messages = request.get("messages");
            String question = messages.get(messages.size() - 1).get("content").asText().toLowerCase(Locale.ROOT);
            String answer = question.contains("return") ? "You can return an item within 30 days of delivery."
                    : question.contains("shipping") ? "Shipping is free on orders over $50."
                    : "You can follow it in your account.";
            String body = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1700000000,"
                    + "\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,\"message\":{\"role\":"
                    + "\"assistant\",\"content\":\"" + answer + "\"},\"finish_reason\":\"stop\"}],"
                    + "\"usage\":{\"prompt_tokens\":18,\"completion_tokens\":12,\"total_tokens\":30}}";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Test
    void theCommittedRecordingsAreWhatTheRealClientRecords() throws IOException {
        Path work = Paths.get("target/it-support-bot").toAbsolutePath();
        Path recordings = Paths.get("target/it-recordings").toAbsolutePath();

        EngineTestKit.engine("agent-arena")
                .configurationParameter("arena.cache.mode", "record")
                .configurationParameter("arena.cache.dir", recordings.toString())
                .configurationParameter("arena.output.dir", work.toString())
                .selectors(selectClass(SupportBotEvalTest.class)).execute();

        assertThat(authorizations).hasSize(3).containsOnly("Bearer sk-loopback");
        List<JsonNode> results = Files.readAllLines(work.resolve("results.jsonl")).stream()
                .map(LangChain4jLoopbackIT::parse).collect(Collectors.toList());
        assertThat(results).hasSize(3).allSatisfy(line -> {
            assertThat(line.get("model").asText()).isEqualTo("support-bot");
            assertThat(line.get("tokens_in").asLong()).isEqualTo(18);
            // the built-in price of the model the response reports, gpt-4o-mini
            assertThat(line.get("cost_usd").asDouble()).isEqualTo((18 * 0.15 + 12 * 0.60) / 1e6);
        });
        assertThat(results).extracting(line -> line.get("case_id").asText() + " " + line.get("status").asText())
                .containsExactlyInAnyOrder("return_window passed", "shipping_cost passed", "order_status failed");

        try (Stream<Path> recorded = Files.list(recordings.resolve("support-bot"))) {
            List<Path> files = recorded.sorted().collect(Collectors.toList());
            assertThat(files).extracting(path -> path.getFileName().toString())
                    .containsExactly("order_status.json", "return_window.json", "shipping_cost.json");
            for (Path file : files) {
                assertThat(Files.readString(file)).as(file.getFileName().toString())
                        .isEqualTo(Files.readString(COMMITTED.resolve(file.getFileName())));
            }
        }
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
