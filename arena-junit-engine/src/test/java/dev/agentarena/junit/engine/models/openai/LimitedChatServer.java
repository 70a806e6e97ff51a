package dev.agentarena.junit.engine.models.openai;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.agentarena.junit.engine.json.Json;

/**
 * An OpenAI-compatible Chat Completions server on loopback that enforces a request and a token budget the way the
 * providers do: two token buckets, full at the start and refilled continuously at {@code limit} per {@code window}
 * (a minute scaled down, so that a benchmark takes a minute or two), every response carrying
 * {@code x-ratelimit-{limit,remaining,reset}-{requests,tokens}} (resets in Go's duration format, as OpenAI writes
 * them), and a request beyond either budget answered 429 with {@code Retry-After} and {@code retry-after-ms}. An
 * admitted request is charged its prompt (characters / 4) and the answer it will get, then answered after a
 * log-normal latency. It counts what it did, per case (the prompt's first word), for the pacing test and
 * benchmark.
 */
final class LimitedChatServer implements AutoCloseable {

    /** One admission or refusal, for measuring after the ramp-up. */
    record Event(long nanos, boolean admitted, long tokens) {
    }

    final long requestLimit;
    final long tokenLimit;
    final Duration window;
    final Map<String, AtomicInteger> answered = new ConcurrentHashMap<>();
    final List<Event> events = new ArrayList<>();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "limited-chat-server");
        thread.setDaemon(true);
        return thread;
    });
    private final double medianMillis;
    private final double sigma;
    private final Random random;
    private double requestLevel;
    private double tokenLevel;
    private long updated;

    /**
     * @param medianMillis the median latency; {@code sigma} the log-normal's shape (0.35 puts nine answers in ten
     *        between about 0.55 and 1.8 times the median)
     */
    LimitedChatServer(long requestLimit, long tokenLimit, Duration window, double medianMillis, double sigma, long seed)
            throws IOException {
        this.requestLimit = requestLimit;
        this.tokenLimit = tokenLimit;
        this.window = window;
        this.medianMillis = medianMillis;
        this.sigma = sigma;
        this.random = new Random(seed);
        this.requestLevel = requestLimit;
        this.tokenLevel = tokenLimit;
        this.updated = System.nanoTime();
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    double requestsPerSecond() {
        return requestLimit / (window.toNanos() / 1e9);
    }

    double tokensPerSecond() {
        return tokenLimit / (window.toNanos() / 1e9);
    }

    synchronized List<Event> events() {
        return new ArrayList<>(events);
    }

    private void handle(HttpExchange exchange) throws IOException {
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        try {
            JsonNode body = Json.MAPPER.readTree(exchange.getRequestBody().readAllBytes());
            StringBuilder prompt = new StringBuilder();
            for (JsonNode message : body.path("messages")) {
                prompt.append(message.path("content").asText(""));
            }
            String caseId = prompt.toString().split("\\s", 2)[0];
            long promptTokens = Math.max(1, prompt.length() / 4);
            int maxTokens = body.path("max_tokens").asInt(128);
            long latencyMillis;
            long completionTokens;
            String[] limitHeaders;
            long retryMillis = -1;
            synchronized (this) {
                long at = System.nanoTime();
                refill(at);
                completionTokens = 10 + random.nextInt(Math.max(1, Math.min(maxTokens, 90) - 9));
                long cost = promptTokens + completionTokens;
                latencyMillis = Math.round(medianMillis * Math.exp(sigma * random.nextGaussian()));
                if (requestLevel < 1 || tokenLevel < cost) {
                    double requestWait = requestLevel < 1 ? (1 - requestLevel) / perNano(requestLimit) : 0;
                    double tokenWait = tokenLevel < cost ? (cost - tokenLevel) / perNano(tokenLimit) : 0;
                    retryMillis = (long) Math.ceil(Math.max(requestWait, tokenWait) / 1e6);
                    events.add(new Event(at, false, 0));
                }
                else {
                    requestLevel -= 1;
                    tokenLevel -= cost;
                    events.add(new Event(at, true, cost));
                }
                limitHeaders = new String[] {"x-ratelimit-limit-requests", String.valueOf(requestLimit),
                        "x-ratelimit-remaining-requests", String.valueOf((long) Math.floor(Math.max(0, requestLevel))),
                        "x-ratelimit-reset-requests", go((requestLimit - requestLevel) / perNano(requestLimit)),
                        "x-ratelimit-limit-tokens", String.valueOf(tokenLimit),
                        "x-ratelimit-remaining-tokens", String.valueOf((long) Math.floor(Math.max(0, tokenLevel))),
                        "x-ratelimit-reset-tokens", go((tokenLimit - tokenLevel) / perNano(tokenLimit))};
            }
            for (int i = 0; i < limitHeaders.length; i += 2) {
                exchange.getResponseHeaders().add(limitHeaders[i], limitHeaders[i + 1]);
            }
            if (retryMillis >= 0) {
                exchange.getResponseHeaders().add("retry-after-ms", String.valueOf(retryMillis));
                exchange.getResponseHeaders().add("Retry-After", String.valueOf((retryMillis + 999) / 1000));
                respond(exchange, 429, "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\","
                        + "\"code\":\"rate_limit_exceeded\"}}");
                return;
            }
            TimeUnit.MILLISECONDS.sleep(latencyMillis);
            answered.computeIfAbsent(caseId, id -> new AtomicInteger()).incrementAndGet();
            respond(exchange, 200, "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                    + "\"message\":{\"role\":\"assistant\",\"content\":\"answer to " + caseId + "\"},"
                    + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":" + promptTokens
                    + ",\"completion_tokens\":" + completionTokens + ",\"total_tokens\":"
                    + (promptTokens + completionTokens) + "}}");
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (IOException e) {
            // the client gave up on this exchange
        }
        finally {
            inFlight.decrementAndGet();
            exchange.close();
        }
    }

    private double perNano(long limit) {
        return limit / (double) window.toNanos();
    }

    private void refill(long now) {
        long elapsed = now - updated;
        requestLevel = Math.min(requestLimit, requestLevel + elapsed * perNano(requestLimit));
        tokenLevel = Math.min(tokenLimit, tokenLevel + elapsed * perNano(tokenLimit));
        updated = now;
    }

    /** A duration as OpenAI writes it: {@code 6m0s}, {@code 1.5s}, {@code 20ms}. */
    static String go(double nanos) {
        long millis = Math.max(0, Math.round(nanos / 1e6));
        if (millis < 1000) {
            return millis + "ms";
        }
        long minutes = millis / 60_000;
        double seconds = (millis % 60_000) / 1000.0;
        String secondsText = String.format(Locale.ROOT, "%.3f", seconds).replaceAll("0+$", "").replaceAll("\\.$", "");
        return (minutes > 0 ? minutes + "m" : "") + secondsText + "s";
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
