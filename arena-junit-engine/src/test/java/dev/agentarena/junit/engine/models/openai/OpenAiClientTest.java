package dev.agentarena.junit.engine.models.openai;

import static dev.agentarena.junit.engine.models.openai.FakeChatServer.json;
import static dev.agentarena.junit.engine.models.openai.FakeChatServer.ok;
import static dev.agentarena.junit.engine.models.openai.FakeChatServer.withHeader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.within;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.registry.ModelRegistry;
import dev.agentarena.junit.engine.models.TestConfigurations;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OpenAiClientTest {

    private static final String KEY = "openai:test-model";
    private static final String CANARY = "sk-canary-4f1e9a7b2c";

    @TempDir
    Path root;

    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
    }

    private FakeChatServer server(FakeChatServer.Behaviour... script) throws Exception {
        FakeChatServer server = new FakeChatServer(List.of(script));
        closeables.add(server);
        return server;
    }

    private ModelClient client(String baseUrl, String... settings) {
        Map<String, String> values = new HashMap<>();
        values.put("arena.models." + KEY + ".base-url", baseUrl);
        values.put("arena.models." + KEY + ".retry.initial-backoff-ms", "1");
        values.put("arena.models." + KEY + ".retry.max-backoff-ms", "20");
        // generous, so that on a loaded machine no answer comes late and is retried (which would add a request);
        // the tests of the timeout set their own
        values.put("arena.models." + KEY + ".timeout-seconds", "20");
        for (int i = 0; i < settings.length; i += 2) {
            values.put("arena.models." + KEY + "." + settings[i], settings[i + 1]);
        }
        ModelRegistry registry = TestConfigurations.registry(root, values, Map.of("OPENAI_API_KEY", CANARY));
        closeables.add(registry);
        ModelEndpoint endpoint = registry.endpoint(KEY);
        return request -> endpoint.answer(request, ModelCall.NONE).completion();
    }

    private static ModelCallException failure(ModelClient client) {
        ModelCallException e = catchThrowableOfType(ModelCallException.class,
                () -> client.complete(ModelRequest.ofPrompt("hi")));
        assertThat(e).as("a ModelCallException").isNotNull();
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        assertThat(trace.toString()).doesNotContain(CANARY);
        return e;
    }

    @Test
    void sendsTheRequestAndReadsTextToolCallsUsageAndCost() throws Exception {
        String body = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\","
                + "\"type\":\"function\",\"function\":{\"name\":\"refund\",\"arguments\":\"{\\\"order\\\":\\\"A-17\\\","
                + "\\\"amount\\\":12.5}\"}},{\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"oops\","
                + "\"arguments\":\"{not json\"}}]}}],\"usage\":{\"prompt_tokens\":1000000,\"completion_tokens\":500000}}";
        FakeChatServer server = server(json(200, body));
        ModelClient client = client(server.baseUrl(), "price.input-per-million", "2", "price.output-per-million", "8");

        Completion completion = client.complete(ModelRequest.ofPrompt("refund order A-17").withSystem("be brief")
                .withTemperature(0).withMaxTokens(64).withSeed(7)
                .withTools(List.of(Map.of("type", "function", "function", Map.of("name", "refund")))));

        assertThat(completion.text()).isEmpty();
        assertThat(completion.toolCalls()).containsExactly(
                ToolCall.of("refund", Map.of("order", "A-17", "amount", 12.5)).withId("c1"),
                ToolCall.of("oops", Map.of("_raw", "{not json")).withId("c2"));
        assertThat(completion.tokensIn()).isEqualTo(1_000_000);
        assertThat(completion.tokensOut()).isEqualTo(500_000);
        assertThat(completion.costUsd()).isEqualTo(6.0);
        assertThat(server.requests()).isEqualTo(1);
        assertThat(server.paths).containsExactly("/v1/chat/completions");
        assertThat(server.authorizations).containsExactly("Bearer " + CANARY);
        assertThat(server.bodies.get(0)).contains("\"model\":\"test-model\"", "\"temperature\":0.0",
                "\"max_tokens\":64", "\"seed\":7", "\"role\":\"system\",\"content\":\"be brief\"",
                "\"tools\":[{");
    }

    @Test
    void pricesCachedPromptTokensAtTheCachedRate() throws Exception {
        String body = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"hi\"}}],\"usage\":"
                + "{\"prompt_tokens\":1000000,\"completion_tokens\":100000,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":400000}}}";
        FakeChatServer server = server(json(200, body), json(200, body));
        ModelClient priced = client(server.baseUrl(), "price.input-per-million", "2", "price.output-per-million", "8",
                "price.cached-input-per-million", "0.5");

        Completion completion = priced.complete(ModelRequest.ofPrompt("hi"));

        assertThat(completion.tokensIn()).isEqualTo(1_000_000);
        assertThat(completion.cachedTokensIn()).isEqualTo(400_000);
        // 600k prompt tokens at $2, 400k cached at $0.50, 100k completion tokens at $8
        assertThat(completion.costUsd()).isCloseTo(1.2 + 0.2 + 0.8, within(1e-9));
    }

    @Test
    void cachedPromptTokensCostTheInputPriceWhenNoCachedPriceIsSet() throws Exception {
        String body = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"hi\"}}],\"usage\":"
                + "{\"prompt_tokens\":1000000,\"completion_tokens\":0,\"cache_read_input_tokens\":250000}}";
        FakeChatServer server = server(json(200, body));
        ModelClient priced = client(server.baseUrl(), "price.input-per-million", "2", "price.output-per-million", "8");

        Completion completion = priced.complete(ModelRequest.ofPrompt("hi"));

        assertThat(completion.cachedTokensIn()).isEqualTo(250_000);
        assertThat(completion.costUsd()).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void honoursRetryAfterOn429ThenSucceeds() throws Exception {
        FakeChatServer server = server(withHeader("Retry-After", "1", json(429, "{\"error\":{\"message\":\"slow down\"}}")),
                ok("hello"));
        List<String> notices = new CopyOnWriteArrayList<>();
        ModelRegistry registry = new ModelRegistry(TestConfigurations.configuration(root, Map.of(
                "arena.models." + KEY + ".base-url", server.baseUrl(), "arena.models." + KEY + ".retry.initial-backoff-ms",
                "1", "arena.models." + KEY + ".retry.max-backoff-ms", "200")), name -> Optional.of(CANARY),
                notices::add);
        closeables.add(registry);

        ModelAnswer answer = registry.endpoint(KEY).answer(ModelRequest.ofPrompt("hi"), ModelCall.NONE);

        assertThat(answer.completion().text()).isEqualTo("hello");
        assertThat(server.requests()).isEqualTo(2);
        // Retry-After: 1 s, capped at 200 ms: the pause the client chose, and the call waited it (the jittered backoff
        // alone would be at most 1 ms); a loaded machine only makes the wait longer
        assertThat(notices).singleElement().asString().startsWith(KEY + ": paused by the provider (HTTP 429) for "
                + "0.2 s, as its Retry-After asks");
        assertThat(answer.queued()).isGreaterThanOrEqualTo(Duration.ofMillis(150));
    }

    @Test
    void retriesA500ThenSucceeds() throws Exception {
        FakeChatServer server = server(json(500, "{\"error\":{\"message\":\"boom\"}}"), ok("hello"));

        assertThat(client(server.baseUrl()).complete(ModelRequest.ofPrompt("hi")).text()).isEqualTo("hello");
        assertThat(server.requests()).isEqualTo(2);
    }

    @Test
    void givesUpAfterMaxRetriesOfA500WithoutLeakingTheKey() throws Exception {
        // a server that echoes the credentials back must not put them in our message
        FakeChatServer server = server(json(500, "{\"error\":{\"message\":\"upstream rejected Bearer " + CANARY + "\"}}"));

        ModelCallException e = failure(client(server.baseUrl(), "max-retries", "3"));

        assertThat(server.requests()).isEqualTo(4);
        assertThat(e).hasMessageContaining("after 4 attempts").hasMessageContaining("HTTP 500")
                .hasMessageContaining("[REDACTED]").hasMessageStartingWith(KEY);
    }

    @Test
    void doesNotRetryAClientError() throws Exception {
        FakeChatServer server = server(json(401, "{\"error\":{\"message\":\"Incorrect API key provided: " + CANARY
                + "\"}}"));

        ModelCallException e = failure(client(server.baseUrl()));

        assertThat(server.requests()).isEqualTo(1);
        assertThat(e).hasMessageContaining("HTTP 401").hasMessageContaining("not retried");
    }

    @Test
    void retriesAHungResponseAfterTheTimeout() throws Exception {
        FakeChatServer live = serverWithHang(1);
        Completion completion = client(live.baseUrl(), "timeout-seconds", "1").complete(ModelRequest.ofPrompt("hi"));

        assertThat(completion.text()).isEqualTo("hello");
        // the hung request and at least one retry (a loaded machine may answer the next one late too)
        assertThat(live.requests()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void failsAfterRetriesWhenTheServerNeverAnswers() throws Exception {
        FakeChatServer live = serverWithHang(Integer.MAX_VALUE);

        ModelCallException e = failure(client(live.baseUrl(), "timeout-seconds", "0.2", "max-retries", "1"));

        assertThat(live.requests()).isEqualTo(2);
        assertThat(e).hasMessageContaining("after 2 attempts").hasMessageContaining("no complete response from "
                + live.baseUrl() + "/chat/completions within 0.2 s");
    }

    private FakeChatServer serverWithHang(int hungRequests) throws Exception {
        List<FakeChatServer.Behaviour> script = new ArrayList<>();
        FakeChatServer[] self = new FakeChatServer[1];
        FakeChatServer.Behaviour hang = exchange -> self[0].hang().respond(exchange);
        for (int i = 0; i < Math.min(hungRequests, 10); i++) {
            script.add(hang);
        }
        if (hungRequests < 10) {
            script.add(ok("hello"));
        }
        self[0] = new FakeChatServer(script);
        closeables.add(self[0]);
        return self[0];
    }

    @Test
    void retriesAConnectionResetMidResponse() throws Exception {
        ResettingServer server = new ResettingServer(1);
        closeables.add(server);

        Completion completion = client(server.baseUrl()).complete(ModelRequest.ofPrompt("hi"));

        assertThat(completion.text()).isEqualTo("after reset");
        assertThat(server.requests.get()).isEqualTo(2);
    }

    @Test
    void failsWhenEveryConnectionIsReset() throws Exception {
        ResettingServer server = new ResettingServer(Integer.MAX_VALUE);
        closeables.add(server);

        ModelCallException e = failure(client(server.baseUrl(), "max-retries", "2"));

        assertThat(server.requests.get()).isEqualTo(3);
        assertThat(e).hasMessageContaining("after 3 attempts")
                .hasMessageContaining("connection error calling " + server.baseUrl() + "/chat/completions: ");
    }

    @Test
    void aPauseTheProviderImposesIsOneLineForTheRunsConsole() throws Exception {
        FakeChatServer server = server(withHeader("retry-after-ms", "20", json(429, "{}")),
                ok("hello"));
        List<String> notices = new CopyOnWriteArrayList<>();
        ModelRegistry registry = new ModelRegistry(TestConfigurations.configuration(root, Map.of(
                "arena.models." + KEY + ".base-url", server.baseUrl())), name -> Optional.of(CANARY), notices::add);
        closeables.add(registry);

        Completion completion = registry.endpoint(KEY).answer(ModelRequest.ofPrompt("hi"), ModelCall.NONE)
                .completion();

        assertThat(completion.text()).isEqualTo("hello");
        assertThat(notices).singleElement().asString().startsWith(KEY + ": paused by the provider (HTTP 429) for "
                + "0.0 s, as its Retry-After asks");
    }

    @Test
    void theTimeACallWaitsForItsTurnIsQueueTimeNotLatency() throws Exception {
        // refused once with Retry-After 300 ms: the call waits at least that long for its turn before it is sent again
        FakeChatServer server = server(withHeader("retry-after-ms", "300", json(429, "{}")), ok("hello"));
        ModelRegistry registry = TestConfigurations.registry(root, Map.of("arena.models." + KEY + ".base-url",
                server.baseUrl()), Map.of("OPENAI_API_KEY", CANARY));
        closeables.add(registry);

        long before = System.nanoTime();
        ModelAnswer answer = registry.endpoint(KEY).answer(ModelRequest.ofPrompt("hi"), ModelCall.NONE);
        long elapsed = System.nanoTime() - before;

        assertThat(answer.completion().text()).isEqualTo("hello");
        assertThat(answer.queued()).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        // the latency is the rest of the call: together they are no more than the call took
        assertThat(answer.completion().latency().plus(answer.queued())).isLessThanOrEqualTo(Duration.ofNanos(elapsed));
    }

    @Test
    void aConnectionErrorNamesTheUrlItTriedWithoutItsQuery() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0)) {
            port = closed.getLocalPort();
        }
        String base = "http://127.0.0.1:" + port + "/v1";

        ModelCallException e = failure(client(base, "max-retries", "0", "query", "key=" + CANARY));

        assertThat(e).hasMessageContaining("connection error calling " + base + "/chat/completions: ");
    }

    @Test
    void retriesATruncatedBodyAtMostTwice() throws Exception {
        String truncated = FakeChatServer.completion("hello").substring(0, 40);
        FakeChatServer server = server(json(200, truncated));

        ModelCallException e = failure(client(server.baseUrl(), "max-retries", "5"));

        assertThat(server.requests()).isEqualTo(1 + OpenAiClient.MALFORMED_RETRIES);
        assertThat(e).hasMessageContaining("after 3 attempts").hasMessageContaining("not valid JSON");
    }

    @Test
    void recoversFromOneTruncatedBody() throws Exception {
        FakeChatServer server = server(json(200, "<html>proxy error"), ok("hello"));

        assertThat(client(server.baseUrl()).complete(ModelRequest.ofPrompt("hi")).text()).isEqualTo("hello");
        assertThat(server.requests()).isEqualTo(2);
    }

    @Test
    void doesNotRetryAWellFormedBodyWithoutChoices() throws Exception {
        FakeChatServer server = server(json(200, "{\"error\":{\"message\":\"model overloaded\"}}"));

        ModelCallException e = failure(client(server.baseUrl()));

        assertThat(server.requests()).isEqualTo(1);
        assertThat(e).hasMessageContaining("no choices: model overloaded").hasMessageContaining("after 1 attempt;");
    }

    @Test
    void readsASlowBodyThatArrivesWithinTheTimeout() throws Exception {
        FakeChatServer server = server(FakeChatServer.slowBody("slow but sure", 4, 50));

        assertThat(client(server.baseUrl()).complete(ModelRequest.ofPrompt("hi")).text()).isEqualTo("slow but sure");
        assertThat(server.requests()).isEqualTo(1);
    }

    @Test
    void aBodyThatStallsPastTheTimeoutIsRetried() throws Exception {
        FakeChatServer server = server(FakeChatServer.slowBody("too slow", 4, 400), ok("hello"));

        // the body takes 1.6 s, past the 1 s limit however fast the machine
        Completion completion = client(server.baseUrl(), "timeout-seconds", "1").complete(ModelRequest.ofPrompt("hi"));

        assertThat(completion.text()).isEqualTo("hello");
        assertThat(server.requests()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void keepsConcurrentRequestsWithinMaxConcurrency() throws Exception {
        // counted while the server works on a request, and no longer once it starts to answer: the server's own
        // count (until the exchange is closed) can see the client's next request, sent as soon as the answer arrived,
        // before the handler of the last one has ended
        AtomicInteger working = new AtomicInteger();
        AtomicInteger mostWorking = new AtomicInteger();
        FakeChatServer server = server(exchange -> {
            mostWorking.accumulateAndGet(working.incrementAndGet(), Math::max);
            try {
                Thread.sleep(60);
            }
            finally {
                working.decrementAndGet();
            }
            ok("hello").respond(exchange);
        });
        ModelClient client = client(server.baseUrl(), "max-concurrency", "2");
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<Completion>> results = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                results.add(pool.submit(() -> client.complete(ModelRequest.ofPrompt("hi"))));
            }
            for (Future<Completion> result : results) {
                assertThat(result.get(20, TimeUnit.SECONDS).text()).isEqualTo("hello");
            }
        }
        finally {
            pool.shutdownNow();
        }
        assertThat(server.requests()).isEqualTo(6);
        assertThat(mostWorking.get()).isBetween(1, 2);
    }

    @Test
    void speaksAzureStyle() throws Exception {
        String[] captured = new String[1];
        FakeChatServer azure = server(exchange -> {
            captured[0] = exchange.getRequestHeaders().getFirst("api-key");
            ok("hello").respond(exchange);
        });

        ModelClient client = client(azure.baseUrl() + "/openai/deployments/my-gpt4o", "auth", "api-key",
                "api-version", "2024-06-01", "headers", "X-Team=evals");
        assertThat(client.complete(ModelRequest.ofPrompt("hi")).text()).isEqualTo("hello");

        assertThat(azure.paths).containsExactly("/v1/openai/deployments/my-gpt4o/chat/completions?api-version=2024-06-01");
        assertThat(captured[0]).isEqualTo(CANARY);
        assertThat(azure.authorizations).containsExactly("null");
    }

    @Test
    void requiresAKeyForOpenAiItself() {
        Map<String, String> values = Map.of();
        try (ModelRegistry registry = TestConfigurations.registry(root, values, Map.of())) {
            assertThatThrownBy(() -> registry.endpoint("openai:gpt-4o-mini")).isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("OPENAI_API_KEY").hasMessageContaining("api-key-env")
                    // the model key and the base URL it used: a lost base-url setting shows here (issue 24)
                    .hasMessageContaining("Model 'openai:gpt-4o-mini' needs an API key for "
                            + "https://api.openai.com/v1")
                    .hasMessageContaining("no arena.models.openai:gpt-4o-mini.base-url is set");
        }
    }

    @Test
    void refusesToSendTheKeyOverPlainHttpToAHostThatIsNotLoopback() throws Exception {
        assertThatThrownBy(() -> client("http://models.example.internal:8000/v1"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("would send its API key (OPENAI_API_KEY) in clear text over http to "
                        + "models.example.internal")
                .hasMessageContaining("arena.models." + KEY + ".allow-key-over-http=true")
                .hasMessageNotContaining(CANARY);
        // Explicitly allowed: the client is created (nothing listens there; no call is made).
        assertThat(client("http://models.example.internal:8000/v1", "allow-key-over-http", "true")).isNotNull();
        // No key sent: nothing to protect.
        assertThat(client("http://models.example.internal:8000/v1", "auth", "none")).isNotNull();
        assertThatThrownBy(() -> client("http://models.example.internal:8000/v1", "allow-key-over-http", "yes"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("must be true or false");
        // Loopback stays plain: Ollama, vLLM and test servers listen there.
        FakeChatServer server = server(ok("hello"));
        assertThat(client(server.baseUrl()).complete(ModelRequest.ofPrompt("hi")).text()).isEqualTo("hello");
    }

    @Test
    void loopbackIsLocalhostOrALoopbackLiteralNeverAResolvedName() {
        assertThat(List.of("localhost", "LOCALHOST", "api.localhost", "127.0.0.1", "127.1.2.3", "[::1]",
                "[0:0:0:0:0:0:0:1]")).allMatch(OpenAiSettings::loopback);
        assertThat(List.of("example.com", "127.0.0.1.nip.io", "localhost.example.com", "10.0.0.1", "[::2]",
                "[fe80::1]")).noneMatch(OpenAiSettings::loopback);
    }
}
