package dev.agentarena.junit.engine.models.openai;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.openai.BatchingModel.Pending;
import dev.agentarena.junit.engine.models.openai.ChatCompletions.Answer;
import dev.agentarena.junit.engine.models.openai.ChatCompletions.MalformedResponse;
import dev.agentarena.junit.engine.secrets.SecretRedactor;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;

/**
 * One batch from upload to its last answer: writes the parked calls as a JSON Lines file, uploads it, creates the
 * batch, polls it with backoff, and answers each call from the output and error files by its {@code custom_id}.
 *
 * <p>Answers stream: whenever a poll shows more requests done and the server already names an output or error file
 * (a server that offers partial output), the files are read and the calls they answer go on at once; otherwise all
 * are answered when the batch completes. A line that failed is an error of its call with the line's message. When
 * the batch ends without answering some calls (expired, failed, cancelled), or is still running when its completion
 * window is over (the engine then cancels it), each call left fails naming the batch and its status.
 */
final class BatchRun {

    private static final Set<String> ENDED = Set.of("completed", "failed", "expired", "cancelled");

    private final OpenAiSettings settings;
    private final BatchSettings batch;
    private final BatchApi api;
    private final SecretRedactor redactor;
    private final RateLimit.Sleeper sleeper;
    // guarded by this
    private final Map<String, Pending> open = new LinkedHashMap<>();
    private final int size;
    private volatile String batchId;
    private volatile String status = "uploading";
    private volatile long done;
    private volatile long startedNanos;
    private volatile String endedAs;
    private volatile boolean cancelled;

    BatchRun(OpenAiSettings settings, BatchSettings batch, BatchApi api, SecretRedactor redactor,
            List<Pending> calls, RateLimit.Sleeper sleeper) {
        this.settings = settings;
        this.sleeper = sleeper;
        this.batch = batch;
        this.api = api;
        this.redactor = redactor;
        calls.forEach(call -> open.put(call.customId(), call));
        this.size = calls.size();
    }

    void run() {
        startedNanos = System.nanoTime();
        try {
            String fileId = api.upload(input());
            JsonNode state = api.create(fileId, batch.endpoint(), batch.completionWindow());
            batchId = state.path("id").asText();
            long deadline = System.nanoTime() + batch.window().plus(batch.maxPollInterval()).toNanos();
            Duration wait = null;
            long seen = 0;
            while (!cancelled) {
                String status = state.path("status").asText("");
                long done = state.path("request_counts").path("completed").asLong(0)
                        + state.path("request_counts").path("failed").asLong(0);
                boolean ended = ENDED.contains(status);
                boolean progressed = done > seen;
                this.status = status;
                this.done = Math.max(this.done, done);
                if (ended) {
                    endedAs = status;
                }
                if (ended || progressed) {
                    readFiles(state);
                }
                seen = Math.max(seen, done);
                if (ended) {
                    failRest(ending(state, status));
                    return;
                }
                if (isAnswered()) {
                    return;
                }
                if (System.nanoTime() - deadline > 0) {
                    cancelQuietly();
                    failRest("was still " + status + " when its completion window of " + batch.completionWindow()
                            + " (batch.completion-window) was over, and was cancelled");
                    return;
                }
                // the first wait, and the wait after a poll that saw progress, is the poll interval; else it doubles
                Duration next = wait == null || progressed ? batch.pollInterval() : wait.multipliedBy(2);
                wait = next.compareTo(batch.maxPollInterval()) > 0 ? batch.maxPollInterval() : next;
                sleeper.sleepNanos(wait.toNanos());
                state = api.get(batchId);
            }
            failRest("was cancelled as the run ended");
        }
        catch (BatchApi.Failure e) {
            failAll(e.getMessage() + (batchId == null ? "" : " (batch " + batchId + ")"));
        }
        catch (InterruptedException e) {
            cancelQuietly();
            failRest("was cancelled as the run ended");
        }
        catch (RuntimeException e) {
            failAll(settings.modelKey + ": the batch" + (batchId == null ? "" : " " + batchId) + " failed: " + e);
        }
    }

    /**
     * Where the batch stands, for the console's progress: {@code batch batch_abc: 400/1000 done, in_progress, 2m 05s
     * elapsed}, or {@code a batch of 1000 requests: uploading, 5s elapsed} before the server named it.
     */
    String describe() {
        String elapsed = elapsed(System.nanoTime() - startedNanos);
        String id = batchId;
        return id == null ? "a batch of " + size + " requests: " + status + ", " + elapsed + " elapsed"
                : "batch " + id + ": " + done + "/" + size + " done, " + status + ", " + elapsed + " elapsed";
    }

    /** {@code 45s}, {@code 2m 05s}, {@code 1h 02m}. */
    static String elapsed(long nanos) {
        long seconds = Math.round(nanos / 1e9);
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return String.format(java.util.Locale.ROOT, "%dm %02ds", seconds / 60, seconds % 60);
        }
        return String.format(java.util.Locale.ROOT, "%dh %02dm", seconds / 3600, seconds % 3600 / 60);
    }

    /** The run is ending: the batch is cancelled, if it was created, and its calls left fail. */
    void cancel() {
        cancelled = true;
        cancelQuietly();
    }

    private void cancelQuietly() {
        if (batchId != null) {
            try {
                api.cancel(batchId);
            }
            catch (BatchApi.Failure | InterruptedException e) {
                // best effort: the server expires it at the end of its window anyway
            }
        }
    }

    /** The calls as the batch API's input lines: {@code custom_id}, {@code method}, {@code url}, {@code body}. */
    private synchronized byte[] input() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Pending call : open.values()) {
            ObjectNode line = Json.MAPPER.createObjectNode().put("custom_id", call.customId()).put("method", "POST")
                    .put("url", batch.endpoint());
            line.set("body", call.body());
            try {
                out.writeBytes(Json.MAPPER.writeValueAsBytes(line));
            }
            catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
            out.write('\n');
        }
        return out.toByteArray();
    }

    private void readFiles(JsonNode state) throws BatchApi.Failure, InterruptedException {
        for (String field : List.of("output_file_id", "error_file_id")) {
            JsonNode id = state.path(field);
            if (id.isTextual() && !id.asText().isBlank() && !isAnswered()) {
                String what = "downloading " + field.replace("_id", "").replace('_', ' ') + " " + id.asText()
                        + " of batch " + batchId;
                for (String line : api.content(id.asText(), what).split("\n")) {
                    if (!line.isBlank()) {
                        answer(line);
                    }
                }
            }
        }
    }

    /** Answers the call of one output or error line; a line of no waiting call (answered before) is skipped. */
    private void answer(String text) {
        JsonNode line;
        try {
            line = Json.MAPPER.readTree(text);
        }
        catch (JsonProcessingException e) {
            return;
        }
        Pending call;
        synchronized (this) {
            call = open.remove(line.path("custom_id").asText(""));
        }
        if (call == null) {
            return;
        }
        JsonNode error = line.path("error");
        if (error.isObject()) {
            fail(call, "request " + call.customId() + " of batch " + batchId + " failed: "
                    + error.path("message").asText(error.toString())
                    + (error.path("code").isTextual() ? " (" + error.path("code").asText() + ")" : "") + endedNote());
            return;
        }
        JsonNode response = line.path("response");
        int status = response.path("status_code").asInt(0);
        JsonNode body = response.path("body");
        String bodyText = body.isTextual() ? body.asText() : body.toString();
        if (status >= 200 && status < 300) {
            try {
                Answer answer = ChatCompletions.parse(bodyText);
                call.answer().complete(Completion.of(answer.text()).withToolCalls(answer.toolCalls())
                        .withTokens(answer.tokensIn(), answer.tokensOut()).withCachedTokensIn(answer.cachedTokensIn())
                        .withCostUsd(batch.pricing().costUsd(answer.tokensIn(), answer.cachedTokensIn(),
                                answer.tokensOut()))
                        .withLatency(Duration.ofNanos(System.nanoTime() - call.startNanos())));
            }
            catch (MalformedResponse e) {
                String message = "request " + call.customId() + " of batch " + batchId + " answered HTTP " + status
                        + ", but " + e.getMessage();
                call.answer().completeExceptionally(e.failure(redactor.redact(settings.modelKey + ": " + message),
                        () -> failure(message)));
            }
            return;
        }
        JsonNode message = body.path("error").path("message");
        fail(call, "request " + call.customId() + " of batch " + batchId + " failed: HTTP " + status + ": "
                + (message.isTextual() ? message.asText() : OpenAiClient.excerpt(redactor, bodyText)) + endedNote());
    }

    /**
     * How the batch ended, when not completed: OpenAI lists the requests an expired batch never ran in its error file
     * ({@code batch_expired}), and their errors should say the batch expired.
     */
    private String endedNote() {
        String status = endedAs;
        return status == null || status.equals("completed") ? "" : "; the batch ended " + status;
    }

    /** Why the batch ended without answering the calls left. */
    private String ending(JsonNode state, String status) {
        long completed = state.path("request_counts").path("completed").asLong(0);
        String answered = " (" + completed + " of " + size + " requests answered)";
        return switch (status) {
            case "expired" -> "ended expired: its completion window of " + batch.completionWindow() + " was over"
                    + answered;
            case "failed" -> "ended failed" + errors(state);
            case "cancelled" -> "ended cancelled" + answered;
            default -> "ended " + status + " without an answer to this request" + answered;
        };
    }

    private static String errors(JsonNode state) {
        List<String> messages = new ArrayList<>();
        for (JsonNode error : state.path("errors").path("data")) {
            messages.add(error.path("message").asText(error.toString())
                    + (error.path("line").isNumber() ? " (line " + error.path("line").asInt() + ")" : ""));
        }
        return messages.isEmpty() ? "" : ": " + String.join("; ", messages);
    }

    private synchronized boolean isAnswered() {
        return open.isEmpty();
    }

    /** Every call still waiting fails: the batch, named with its status, did not answer it. */
    private void failRest(String why) {
        List<Pending> left;
        synchronized (this) {
            left = new ArrayList<>(open.values());
            open.clear();
        }
        for (Pending call : left) {
            fail(call, "batch " + batchId + " " + why + ", before answering request " + call.customId());
        }
    }

    /** A step of the batch API failed: every call still waiting fails with its message. */
    private void failAll(String message) {
        List<Pending> left;
        synchronized (this) {
            left = new ArrayList<>(open.values());
            open.clear();
        }
        ModelCallException failure = new ModelCallException(redactor.redact(message));
        left.forEach(call -> call.answer().completeExceptionally(failure));
    }

    private void fail(Pending call, String message) {
        call.answer().completeExceptionally(failure(message));
    }

    private ModelCallException failure(String message) {
        return new ModelCallException(redactor.redact(settings.modelKey + ": " + message));
    }
}
