package dev.agentarena.junit.engine.models.openai;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.openai.ChatCompletions.Answer;
import dev.agentarena.junit.engine.models.openai.ChatCompletions.MalformedResponse;
import dev.agentarena.junit.engine.secrets.SecretRedactor;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/**
 * One OpenAI-compatible Chat Completions model, with timeouts, retries, the provider's limits learned and paced
 * ({@link AdaptiveLimits}: {@code max-concurrency} and {@code tpm} as ceilings) and an even {@code rpm}.
 *
 * <p>Each attempt is one HTTP request. 408, 429, 5xx, connection errors and timeouts are retried up to
 * {@code max-retries} times; a 2xx body that is not JSON (a truncated response) at most {@link #MALFORMED_RETRIES}
 * times, since it is rarely transient twice. Everything else fails at once. The failure is one
 * {@link ModelCallException} naming the attempts made, with the API key and header values redacted
 * ({@link SecretRedactor}).
 */
final class OpenAiClient implements ModelClient, ModelEndpoint {

    /**
     * How many calls of a self-paced key may be in flight at most when {@code max-concurrency} sets no ceiling: the
     * engine keeps as many cases waiting on the key as its learned pace needs, up to this.
     */
    static final int MOST_IN_FLIGHT = 256;

    static final int MALFORMED_RETRIES = 2;
    private static final int MAX_EXCERPT = 300;

    private final OpenAiSettings settings;
    private final ExecutorService executor;
    private final HttpClient http;
    private final SecretRedactor redactor;
    private final Backoff backoff;
    private final AdaptiveLimits limits;
    private final RateLimit rate;

    OpenAiClient(OpenAiSettings settings) {
        this.settings = settings;
        // plain-HTTP servers (Ollama, llama.cpp, vLLM) do not all survive an h2c upgrade attempt
        HttpClient.Version version = settings.endpoint.getScheme().equals("https") ? HttpClient.Version.HTTP_2
                : HttpClient.Version.HTTP_1_1;
        this.executor = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "arena-http-" + settings.modelKey);
            thread.setDaemon(true);
            return thread;
        });
        this.http = HttpClient.newBuilder().version(version).connectTimeout(settings.connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).executor(executor).build();
        this.redactor = SecretRedactor.of(settings.secrets());
        this.backoff = new Backoff(settings.initialBackoff, settings.maxBackoff,
                () -> ThreadLocalRandom.current().nextDouble(), Instant::now);
        this.limits = AdaptiveLimits.system(settings.modelKey, settings.notices, settings.adaptive,
                settings.maxConcurrency, settings.tokensPerMinute, backoff::retryAfter, settings.maxBackoff);
        this.rate = RateLimit.system(settings.requestsPerMinute);
    }

    @Override
    public ModelAnswer answer(ModelRequest request, ModelCall call) {
        Made made = call(request);
        return new ModelAnswer(made.completion(), false, made.queued());
    }

    /**
     * A call's answer and the time it waited for its turn: for a place in flight, for its start under the paced
     * rate and {@code rpm}, and through a pause a 429 imposed. The completion's latency is the rest.
     */
    private record Made(Completion completion, Duration queued) {
    }

    /**
     * With adaptation on, the key paces itself: the engine lets as many cases wait on it as its learned pace needs
     * (not {@code arena.concurrency}), up to {@code max-concurrency} or {@value #MOST_IN_FLIGHT}.
     */
    @Override
    public Optional<Pacing> pacing() {
        if (!settings.adaptive) {
            return Optional.empty();
        }
        int most = settings.maxConcurrency > 0 ? settings.maxConcurrency : MOST_IN_FLIGHT;
        return Optional.of(new Pacing() {
            @Override
            public int inFlightWanted() {
                return limits.inFlightWanted(most);
            }

            @Override
            public int mostInFlight() {
                return most;
            }
        });
    }

    @Override
    public Completion complete(ModelRequest request) {
        return call(request).completion();
    }

    private Made call(ModelRequest request) {
        byte[] body = ChatCompletions.requestBody(request, settings);
        HttpRequest httpRequest = httpRequest(body);
        long estimatedTokens = limits.estimate(body.length, request.maxTokens().orElse(settings.maxTokens));
        long start = System.nanoTime();
        String lastError = "";
        Throwable lastCause = null;
        int malformed = 0;
        int attempts = settings.maxRetries + 1;
        Duration wait = Duration.ZERO;
        boolean refused = false;
        long[] queued = {0};
        for (int attempt = 1; attempt <= attempts; attempt++) {
            if (attempt > 1) {
                long slept = System.nanoTime();
                sleep(wait);
                if (refused) {
                    // the provider's 429 asked the call to wait its turn: the model was not answering meanwhile
                    queued[0] += System.nanoTime() - slept;
                }
            }
            refused = false;
            HttpResponse<String> response;
            try {
                response = send(httpRequest, estimatedTokens, queued);
            }
            catch (HttpTimeoutException | TimeoutException e) {
                lastError = e instanceof HttpConnectTimeoutException
                        ? "could not connect to " + address() + " within " + seconds(settings.connectTimeout)
                        : "no complete response from " + address() + " within " + seconds(settings.requestTimeout);
                lastCause = null;
                wait = backoff.delay(attempt);
                continue;
            }
            catch (IOException e) {
                lastError = "connection error calling " + address() + ": " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + redactor.redact(e.getMessage()));
                lastCause = e;
                wait = backoff.delay(attempt);
                continue;
            }
            int status = response.statusCode();
            if (status >= 200 && status < 300) {
                try {
                    Answer answer = ChatCompletions.parse(response.body());
                    limits.settle(estimatedTokens, answer.tokensIn(), answer.tokensOut());
                    return new Made(completion(answer, start, queued[0]), Duration.ofNanos(queued[0]));
                }
                catch (MalformedResponse e) {
                    lastError = "HTTP " + status + ", but " + redactor.redact(String.valueOf(e.getMessage()));
                    lastCause = null;
                    if (!e.retryable || malformed++ >= MALFORMED_RETRIES || attempt == attempts) {
                        int tried = attempt;
                        String error = lastError;
                        throw e.failure(redactor.redact(settings.modelKey + ": " + error),
                                () -> failure(error, tried, null));
                    }
                    wait = backoff.delay(attempt);
                    continue;
                }
            }
            lastError = "HTTP " + status + describe(response.body());
            lastCause = null;
            if (!retryable(status)) {
                throw new ModelCallException(settings.modelKey + ": " + lastError + " (not retried; attempt "
                        + attempt + ")");
            }
            refused = status == 429;
            wait = backoff.retryAfter(response.headers()).orElse(backoff.delay(attempt));
        }
        throw failure(lastError, attempts, lastCause);
    }

    /** The limits learned so far, for tests and the pacing benchmark. */
    AdaptiveLimits limits() {
        return limits;
    }

    /** Ends the client's HTTP threads; Java 17's HttpClient has no close of its own. */
    @Override
    public void close() {
        executor.shutdownNow();
    }

    private HttpRequest httpRequest(byte[] body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(settings.endpoint).timeout(settings.requestTimeout)
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (settings.apiKey != null) {
            if (settings.auth == OpenAiSettings.Auth.BEARER) {
                builder.header("Authorization", "Bearer " + settings.apiKey);
            }
            else if (settings.auth == OpenAiSettings.Auth.API_KEY) {
                builder.header("api-key", settings.apiKey);
            }
        }
        for (Map.Entry<String, String> header : settings.headers.entrySet()) {
            builder.header(header.getKey(), header.getValue());
        }
        return builder.build();
    }

    /**
     * One attempt. The request timeout of {@link HttpRequest} ends when the headers arrive; the deadline on the
     * future also covers a body that stalls halfway. Adds the time it waited for its turn to {@code queued[0]}.
     */
    private HttpResponse<String> send(HttpRequest request, long estimatedTokens, long[] queued) throws IOException,
            TimeoutException {
        AdaptiveLimits.Permit permit;
        long waiting = System.nanoTime();
        try {
            permit = limits.acquire(estimatedTokens);
        }
        catch (InterruptedException e) {
            throw interrupted(e);
        }
        HttpResponse<String> response = null;
        try {
            rate.acquire();
            queued[0] += System.nanoTime() - waiting;
            CompletableFuture<HttpResponse<String>> future = http.sendAsync(request,
                    HttpResponse.BodyHandlers.ofString());
            try {
                response = future.get(settings.requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
                return response;
            }
            catch (TimeoutException e) {
                future.cancel(true);
                throw e;
            }
            catch (InterruptedException e) {
                future.cancel(true);
                throw e;
            }
            catch (ExecutionException e) {
                if (e.getCause() instanceof IOException) {
                    throw (IOException) e.getCause();
                }
                throw new IOException(String.valueOf(e.getCause()), e.getCause());
            }
        }
        catch (InterruptedException e) {
            throw interrupted(e);
        }
        finally {
            limits.release(permit, response == null ? 0 : response.statusCode(),
                    response == null ? null : response.headers());
        }
    }

    /** The answer, its latency from {@code start} without the {@code queuedNanos} it waited for its turn. */
    private Completion completion(Answer answer, long start, long queuedNanos) {
        return Completion.of(answer.text()).withToolCalls(answer.toolCalls())
                .withTokens(answer.tokensIn(), answer.tokensOut()).withCachedTokensIn(answer.cachedTokensIn())
                .withCostUsd(settings.pricing.costUsd(answer.tokensIn(), answer.cachedTokensIn(), answer.tokensOut()))
                .withLatency(Duration.ofNanos(Math.max(0, System.nanoTime() - start - queuedNanos)));
    }

    /** The URL the calls go to, for errors. */
    private String address() {
        return address(settings.endpoint);
    }

    /** A URL for errors: scheme, host, port and path, without the query (where some gateways take a key). */
    static String address(URI uri) {
        return uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath();
    }

    private static boolean retryable(int status) {
        return status == 408 || status == 429 || status >= 500;
    }

    private String describe(String body) {
        String excerpt = excerpt(redactor, body == null ? "" : body);
        return excerpt.isEmpty() ? "" : ": " + excerpt;
    }

    /** A redacted, single-line excerpt of a response body: a proxy may reflect the request headers back. */
    static String excerpt(SecretRedactor redactor, String body) {
        String flat = redactor.redact(body).replaceAll("\\s+", " ").strip();
        return flat.length() <= MAX_EXCERPT ? flat : flat.substring(0, MAX_EXCERPT - 1) + "…";
    }

    private ModelCallException failure(String lastError, int attempts, Throwable cause) {
        String message = settings.modelKey + ": the model call failed after " + attempts
                + (attempts == 1 ? " attempt" : " attempts") + "; last error: " + lastError;
        return new ModelCallException(redactor.redact(message), redactor.safeCause(cause));
    }

    private void sleep(Duration wait) {
        try {
            Thread.sleep(wait.toMillis());
        }
        catch (InterruptedException e) {
            throw interrupted(e);
        }
    }

    private ModelCallException interrupted(InterruptedException e) {
        Thread.currentThread().interrupt();
        return new ModelCallException(settings.modelKey + ": interrupted while calling the model", e);
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }
}
