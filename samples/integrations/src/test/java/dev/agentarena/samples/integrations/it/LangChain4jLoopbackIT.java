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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.samples.integrations.langchain4j.replay.SupportAgentReplayEvalTest;
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
            String body;
            if (request.has("tools")) {
                body = agentTurn(messages);
            }
            else {
                String question = messages.get(messages.size() - 1).get("content").asText().toLowerCase(Locale.ROOT);
                String answer = question.contains("return") ? "You can return an item within 30 days of delivery."
                        : question.contains("shipping") ? "Shipping is free on orders over $50."
                        : "You can follow it in your account.";
                body = completion(JSON.createObjectNode().put("role", "assistant").put("content", answer), "stop");
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /**
     * One turn of a scripted support agent, as an OpenAI model answers a request with tools: it looks up the order the
     * customer names, then refunds it when they want their money back or escalates when they ask for a person, one
     * tool call per turn, and answers with what the tools returned once every call has its result.
     */
    private static String agentTurn(JsonNode messages) {
        String question = "";
        List<String> results = new ArrayList<>();
        for (JsonNode message : messages) {
            switch (message.path("role").asText()) {
                case "user" -> question = message.path("content").asText();
                case "tool" -> results.add(message.path("content").asText());
                default -> { }
            }
        }
        String lower = question.toLowerCase(Locale.ROOT);
        Matcher number = Pattern.compile("\\d+").matcher(question);
        List<ObjectNode> plan = new ArrayList<>();
        if (number.find()) {
            int order = Integer.parseInt(number.group());
            plan.add(call("lookup_order", JSON.createObjectNode().put("orderId", order)));
            if (lower.contains("refund") || lower.contains("money back") || lower.contains("never came")) {
                plan.add(call("refund", JSON.createObjectNode().put("orderId", order)));
            }
            else if (lower.contains("manager")) {
                plan.add(call("escalate", JSON.createObjectNode().put("orderId", order)
                        .put("reason", "late for the third time, asks for a manager")));
            }
        }
        ObjectNode message = JSON.createObjectNode().put("role", "assistant");
        if (results.size() < plan.size()) {
            ObjectNode next = plan.get(results.size()).put("id", "call_" + (results.size() + 1));
            message.putNull("content");
            message.putArray("tool_calls").add(next);
            return completion(message, "tool_calls");
        }
        String answer = !results.isEmpty() ? "Done. " + String.join(" ", results)
                : lower.contains("return") ? "You can return an item within 30 days of delivery."
                : "You are welcome!";
        return completion(message.put("content", answer), "stop");
    }

    private static ObjectNode call(String tool, ObjectNode arguments) {
        ObjectNode call = JSON.createObjectNode().put("type", "function");
        call.putObject("function").put("name", tool).put("arguments", arguments.toString());
        return call;
    }

    private static String completion(ObjectNode message, String finishReason) {
        ObjectNode body = JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion")
                .put("created", 1700000000).put("model", "gpt-4o-mini-2024-07-18");
        body.putArray("choices").addObject().put("index", 0).put("finish_reason", finishReason).set("message", message);
        body.putObject("usage").put("prompt_tokens", 18).put("completion_tokens", 12).put("total_tokens", 30);
        return body.toString();
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

    /**
     * The agent sample's recordings: LangChain4j's real OpenAI client, sent the AI service's three tools, asks for tool
     * calls over HTTP and gets their results back, several model turns per case; what the engine records is what the
     * build committed, and the build's replay of it (Surefire execution {@code replay}, no key, no network) took the
     * same steps with the same tool calls, results and answers.
     */
    @Test
    void theAgentsCommittedRecordingsAreWhatTheRealClientRecordsAndReplayTakesTheSameSteps() throws IOException {
        Path work = Paths.get("target/it-support-agent").toAbsolutePath();
        Path recordings = Paths.get("target/it-recordings").toAbsolutePath();
        // record keeps the entries of requests no longer made: start from nothing, as a fresh recording would
        if (Files.isDirectory(recordings.resolve("support-agent-gpt"))) {
            try (Stream<Path> old = Files.list(recordings.resolve("support-agent-gpt"))) {
                for (Path file : old.toList()) {
                    Files.delete(file);
                }
            }
        }

        EngineTestKit.engine("agent-arena")
                .configurationParameter("arena.cache.mode", "record")
                .configurationParameter("arena.cache.dir", recordings.toString())
                .configurationParameter("arena.output.dir", work.toString())
                .selectors(selectClass(SupportAgentReplayEvalTest.class)).execute();

        Map<String, JsonNode> recorded = byCase(work.resolve("results.jsonl"), "support-agent-replay");
        assertThat(recorded).hasSize(8);
        assertThat(authorizations).hasSize(18).containsOnly("Bearer sk-loopback");
        assertThat(recorded.get("refund_broken").get("trajectory")).extracting(step -> step.get("type").asText()
                + (step.has("name") ? " " + step.get("name").asText() : ""))
                .containsExactly("model", "tool lookup_order", "model", "tool refund", "model");
        assertThat(recorded.values()).allSatisfy(line -> assertThat(line.get("status").asText()).isNotEqualTo("error"));

        Path committed = Paths.get("src/test/resources/arena-recordings/support-agent-gpt");
        try (Stream<Path> files = Files.list(recordings.resolve("support-agent-gpt"))) {
            List<Path> written = files.sorted().collect(Collectors.toList());
            assertThat(written).hasSize(8);
            for (Path file : written) {
                assertThat(Files.readString(file)).as(file.getFileName().toString())
                        .isEqualTo(Files.readString(committed.resolve(file.getFileName())));
            }
        }

        Map<String, JsonNode> replayed = byCase(Paths.get("target/arena-replay/results.jsonl"), "support-agent-replay");
        assertThat(replayed.keySet()).as("cases of the build's replay").isEqualTo(recorded.keySet());
        recorded.forEach((id, line) -> {
            assertThat(replayed.get(id).get("cached").asBoolean()).as(id + " replayed").isTrue();
            assertThat(steps(replayed.get(id))).as(id + ": the replay's steps").isEqualTo(steps(line));
            assertThat(replayed.get(id).get("output")).as(id + ": the replay's answer").isEqualTo(line.get("output"));
        });
    }

    /** The {@code contains} line of each case of an eval in a results file. */
    private static Map<String, JsonNode> byCase(Path results, String eval) throws IOException {
        return Files.readAllLines(results).stream().map(LangChain4jLoopbackIT::parse)
                .filter(line -> line.get("eval").asText().equals(eval))
                .filter(line -> line.get("scorer").asText().equals("contains"))
                .collect(Collectors.toMap(line -> line.get("case_id").asText(), line -> line));
    }

    /** A trajectory without what differs between a call and its replay: timings, cost and the replayed flag. */
    private static List<JsonNode> steps(JsonNode line) {
        List<JsonNode> steps = new ArrayList<>();
        for (JsonNode step : line.path("trajectory")) {
            ObjectNode kept = step.deepCopy();
            kept.remove(List.of("latency_ms", "duration_ms", "cost_usd", "replayed"));
            steps.add(kept);
        }
        return steps;
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
