package dev.agentarena.junit.engine.models.openai;

import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.secrets.SecretRedactor;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/**
 * An {@code openai:} model whose calls go through the provider's batch API ({@code batch=true}) at the batch price.
 *
 * <p>A case's task calls the model synchronously, as it would any model: the call is parked, with the request it
 * would have sent, until its batch answers. Calls gather until {@code batch.max-size} are waiting, or until none has
 * arrived for {@code batch.linger}; then they are sent as one batch ({@link BatchRun}) while the next one gathers. The
 * engine lets enough cases wait at once to fill a batch ({@link #batching()}). An agent's loop works step by step: the
 * cases' first calls make one batch, their second calls, made as the first answers come back, the next.
 */
final class BatchingModel implements ModelClient, ModelEndpoint {

    /** A call waiting for its batch: its line's {@code custom_id}, the request's body, and its answer to come. */
    record Pending(String customId, JsonNode body, CompletableFuture<Completion> answer, long startNanos) {
    }

    /** The answer's tokens a reservation counts when neither the request nor the key sets {@code max-tokens}. */
    static final long ANSWER_ESTIMATE = 500;

    private final OpenAiSettings settings;
    private final BatchSettings batch;
    private final BatchApi api;
    private final SecretRedactor redactor;
    private final RateLimit.Sleeper sleeper;
    private final ExecutorService executor;
    private final AtomicLong sequence = new AtomicLong();
    private final Object lock = new Object();
    // guarded by lock
    private final List<Pending> waiting = new ArrayList<>();
    private final List<BatchRun> running = new ArrayList<>();
    private long lastArrival;
    private Thread gatherer;
    private boolean closed;

    BatchingModel(OpenAiSettings settings, BatchSettings batch) {
        this(settings, batch, nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)));
    }

    /** @param sleeper how a batch waits between polls; a test's records the waits */
    BatchingModel(OpenAiSettings settings, BatchSettings batch, RateLimit.Sleeper sleeper) {
        this.settings = settings;
        this.sleeper = sleeper;
        this.batch = batch;
        this.executor = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "arena-batch-" + settings.modelKey);
            thread.setDaemon(true);
            return thread;
        });
        HttpClient.Version version = settings.endpoint.getScheme().equals("https") ? HttpClient.Version.HTTP_2
                : HttpClient.Version.HTTP_1_1;
        HttpClient http = HttpClient.newBuilder().version(version).connectTimeout(settings.connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).executor(executor).build();
        this.redactor = SecretRedactor.of(settings.secrets());
        this.api = new BatchApi(settings, http, new Backoff(settings.initialBackoff, settings.maxBackoff,
                () -> ThreadLocalRandom.current().nextDouble(), Instant::now), redactor);
    }

    @Override
    public Optional<Batching> batching() {
        return Optional.of(new Batching(batch.maxSize(), batch.longestWait()));
    }

    /**
     * A call's most likely highest cost at the batch price: its body's characters / 4 in, its {@code max_tokens} (or
     * the model key's {@code max-tokens}, else {@value #ANSWER_ESTIMATE}) out.
     */
    @Override
    public double estimatedCostUsd(ModelRequest request) {
        long in = ChatCompletions.requestBody(request, settings).length / 4;
        long out = request.maxTokens().map(Integer::longValue)
                .orElse(settings.maxTokens != null ? settings.maxTokens.longValue() : ANSWER_ESTIMATE);
        return batch.pricing().costUsd(in, out);
    }

    /** The batches running, each where it stands, and the calls gathering for the next one. */
    @Override
    public List<String> waitingOn() {
        synchronized (lock) {
            List<String> lines = new ArrayList<>();
            running.forEach(run -> lines.add(run.describe()));
            if (!waiting.isEmpty()) {
                lines.add(waiting.size() + (waiting.size() == 1 ? " call gathering" : " calls gathering")
                        + " for the next batch");
            }
            return lines;
        }
    }

    @Override
    public Completion complete(ModelRequest request) {
        return answer(request, ModelCall.NONE).completion();
    }

    @Override
    public ModelAnswer answer(ModelRequest request, ModelCall call) {
        JsonNode body;
        try {
            body = Json.MAPPER.readTree(ChatCompletions.requestBody(request, settings));
        }
        catch (IOException e) {
            throw new IllegalStateException("cannot read back the request's own JSON", e);
        }
        String caseId = call.forCase().map(EvalCase::id).orElse("no-case");
        Pending pending = new Pending(caseId + "#" + call.repeat() + "#" + sequence.incrementAndGet(), body,
                new CompletableFuture<>(), System.nanoTime());
        enqueue(pending);
        try {
            return ModelAnswer.live(pending.answer().get());
        }
        catch (InterruptedException e) {
            synchronized (lock) {
                waiting.remove(pending);
            }
            pending.answer().cancel(false);
            Thread.currentThread().interrupt();
            throw new ModelCallException(settings.modelKey + ": interrupted while waiting for its batch (request "
                    + pending.customId() + ")", e);
        }
        catch (ExecutionException e) {
            if (e.getCause() instanceof ModelCallException failure) {
                throw new ModelCallException(failure.getMessage(), failure.getCause());
            }
            throw new ModelCallException(settings.modelKey + ": the batch failed: " + e.getCause(), e.getCause());
        }
    }

    private void enqueue(Pending pending) {
        synchronized (lock) {
            if (closed) {
                throw new ModelCallException(settings.modelKey + ": the model was closed; no batch will be sent");
            }
            waiting.add(pending);
            lastArrival = System.nanoTime();
            if (gatherer == null) {
                gatherer = new Thread(this::gather, "arena-batch-gather-" + settings.modelKey);
                gatherer.setDaemon(true);
                gatherer.start();
            }
            lock.notifyAll();
        }
    }

    /** Sends a batch whenever one is full, or no call has arrived for the linger time. */
    private void gather() {
        while (true) {
            List<Pending> next;
            synchronized (lock) {
                try {
                    while (!closed && (waiting.isEmpty() || !due())) {
                        if (waiting.isEmpty()) {
                            lock.wait();
                        }
                        else {
                            long left = lastArrival + batch.linger().toNanos() - System.nanoTime();
                            lock.wait(Math.max(1, left / 1_000_000), 0);
                        }
                    }
                }
                catch (InterruptedException e) {
                    return;
                }
                if (closed) {
                    return;
                }
                int size = Math.min(waiting.size(), batch.maxSize());
                next = new ArrayList<>(waiting.subList(0, size));
                waiting.subList(0, size).clear();
            }
            next.removeIf(pending -> pending.answer().isDone());
            if (!next.isEmpty()) {
                BatchRun run = new BatchRun(settings, batch, api, redactor, next, sleeper);
                synchronized (lock) {
                    running.add(run);
                }
                executor.execute(() -> {
                    try {
                        run.run();
                    }
                    finally {
                        synchronized (lock) {
                            running.remove(run);
                        }
                    }
                });
            }
        }
    }

    private boolean due() {
        return waiting.size() >= batch.maxSize()
                || System.nanoTime() - lastArrival >= batch.linger().toNanos();
    }

    /**
     * Fails the calls still waiting and cancels the batches still running (a run that stops early): a batch left
     * behind would be paid for and never read.
     */
    @Override
    public void close() {
        List<Pending> left;
        List<BatchRun> unfinished;
        synchronized (lock) {
            closed = true;
            left = new ArrayList<>(waiting);
            waiting.clear();
            unfinished = new ArrayList<>(running);
            lock.notifyAll();
        }
        ModelCallException closing = new ModelCallException(settings.modelKey
                + ": the run ended before the batch was sent");
        left.forEach(pending -> pending.answer().completeExceptionally(closing));
        unfinished.forEach(BatchRun::cancel);
        executor.shutdownNow();
    }
}
