package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Runs {@code OpenAiCompatibleEval} against a real OpenAI-compatible HTTP server on loopback (and the simulated
 * model), through the console launcher, with a canary API key in the environment: every case is scored, a 429 is
 * retried, and the key appears in no file the run writes.
 */
class OpenAiLoopbackIT {

    private static final String CANARY = "sk-canary-7f3a9c1e5b2d4068";
    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpServer server;
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final AtomicBoolean throttledOnce = new AtomicBoolean();

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", this::complete);
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private void complete(HttpExchange exchange) throws IOException {
        authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
        JsonNode request = JSON.readTree(exchange.getRequestBody());
        String prompt = request.get("messages").get(request.get("messages").size() - 1).get("content").asText();
        if (prompt.contains("crashes") && throttledOnce.compareAndSet(false, true)) {
            exchange.getResponseHeaders().add("Retry-After", "0");
            respond(exchange, 429, "{\"error\":{\"message\":\"slow down\"}}");
            return;
        }
        String lower = prompt.toLowerCase(Locale.ROOT);
        String label = lower.contains("charged") ? "billing" : lower.contains("crashes") ? "technical"
                : lower.contains("password") ? "account" : "billing";
        respond(exchange, 200, "{\"id\":\"x\",\"object\":\"chat.completion\",\"model\":\"triage-model\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"The ticket is "
                + label + ".\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":4}}");
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Test
    void scoresEveryCaseOnBothModelsAndLeaksTheKeyNowhere() throws Exception {
        Path work = Paths.get("target/openai-loopback").toAbsolutePath();
        String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
        String console = ConsoleRun.with("console-junit5.jar")
                .select("--select-class", "dev.agentarena.samples.openai.OpenAiCompatibleEval")
                .config("arena.models.openai:triage-model.base-url", base)
                .config("arena.models.openai:triage-model.retry.initial-backoff-ms", "10")
                .config("arena.models.openai:triage-model.price.input-per-million", "0.5")
                .config("arena.models.openai:triage-model.price.output-per-million", "1.5")
                .config("arena.output.dir", work.resolve("arena").toString())
                .environment("OPENAI_API_KEY", CANARY)
                .run(work.resolve("console.log"));

        List<JsonNode> results = Files.readAllLines(work.resolve("arena/results.jsonl")).stream()
                .map(OpenAiLoopbackIT::parse).collect(Collectors.toList());
        assertThat(results).hasSize(8);
        List<JsonNode> remote = results.stream().filter(r -> r.get("model").asText().equals("openai:triage-model"))
                .collect(Collectors.toList());
        assertThat(remote).hasSize(4).allSatisfy(r -> {
            assertThat(r.get("tokens_in").asLong()).isEqualTo(20);
            assertThat(r.get("cost_usd").asDouble()).isCloseTo((20 * 0.5 + 4 * 1.5) / 1e6, within());
            assertThat(r.get("output").asText()).startsWith("The ticket is ");
        });
        assertThat(remote).filteredOn(r -> r.get("case_id").asText().equals("say_thanks")).singleElement()
                .satisfies(r -> assertThat(r.get("status").asText()).isEqualTo("failed"));
        assertThat(remote).filteredOn(r -> !r.get("case_id").asText().equals("say_thanks"))
                .allSatisfy(r -> assertThat(r.get("status").asText()).isEqualTo("passed"));
        assertThat(throttledOnce).isTrue();
        // four cases, one of them retried after the 429: five requests, none counted twice in the results
        assertThat(authorizations).hasSize(5).containsOnly("Bearer " + CANARY);
        assertThat(console).doesNotContain(CANARY);

        try (Stream<Path> files = Files.walk(work)) {
            for (Path file : files.filter(Files::isRegularFile).collect(Collectors.toList())) {
                assertThat(Files.readString(file, StandardCharsets.ISO_8859_1)).as(file.toString())
                        .doesNotContain(CANARY);
            }
        }
    }

    private static org.assertj.core.data.Offset<Double> within() {
        return org.assertj.core.data.Offset.offset(1e-12);
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
