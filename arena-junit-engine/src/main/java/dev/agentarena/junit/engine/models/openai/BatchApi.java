package dev.agentarena.junit.engine.models.openai;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.secrets.SecretRedactor;

/**
 * The five requests of OpenAI's batch API, on the model's base URL: upload the input file ({@code POST /files},
 * multipart, {@code purpose=batch}), create the batch ({@code POST /batches}), read it ({@code GET /batches/{id}}),
 * cancel it, and download a file ({@code GET /files/{id}/content}). Each is retried like a chat call (408, 429, 5xx,
 * connection errors, with the model's backoff and {@code Retry-After}); what still fails is a {@link Failure} naming
 * the step, the status and the server's words, with the key redacted.
 */
final class BatchApi {

    /** A request of the batch API that failed for good. */
    static final class Failure extends Exception {

        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message);
        }
    }

    private final OpenAiSettings settings;
    private final HttpClient http;
    private final Backoff backoff;
    private final SecretRedactor redactor;
    private final String base;
    private final String query;

    BatchApi(OpenAiSettings settings, HttpClient http, Backoff backoff, SecretRedactor redactor) {
        this.settings = settings;
        this.http = http;
        this.backoff = backoff;
        this.redactor = redactor;
        // the chat endpoint's URL without /chat/completions, its query (Azure's api-version) kept
        String url = settings.endpoint.toString();
        int question = url.indexOf('?');
        String path = question < 0 ? url : url.substring(0, question);
        this.base = path.substring(0, path.length() - "/chat/completions".length());
        this.query = question < 0 ? "" : url.substring(question);
    }

    /** Uploads the requests as a JSON Lines file with {@code purpose=batch}; the file's id. */
    String upload(byte[] jsonLines) throws Failure, InterruptedException {
        String boundary = "arena-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n");
        write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"arena-batch.jsonl\""
                + "\r\nContent-Type: application/jsonl\r\n\r\n");
        body.writeBytes(jsonLines);
        write(body, "\r\n--" + boundary + "--\r\n");
        HttpRequest request = builder("/files").header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build();
        return id(json("uploading the batch's input file", request), "uploading the batch's input file");
    }

    /** Creates the batch of an uploaded file; the batch as the server describes it. */
    JsonNode create(String inputFileId, String endpoint, String completionWindow)
            throws Failure, InterruptedException {
        ObjectNode body = Json.MAPPER.createObjectNode().put("input_file_id", inputFileId).put("endpoint", endpoint)
                .put("completion_window", completionWindow);
        body.putObject("metadata").put("created_by", "agent-arena " + settings.modelKey);
        HttpRequest request = builder("/batches").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes(body))).build();
        JsonNode batch = json("creating the batch", request);
        id(batch, "creating the batch");
        return batch;
    }

    /** The batch as it stands. */
    JsonNode get(String batchId) throws Failure, InterruptedException {
        return json("reading batch " + batchId, builder("/batches/" + batchId).GET().build());
    }

    /** Asks the server, once, to cancel the batch: the run is ending, and a batch left behind is paid for unread. */
    void cancel(String batchId) throws Failure, InterruptedException {
        send("cancelling batch " + batchId, builder("/batches/" + batchId + "/cancel")
                .POST(HttpRequest.BodyPublishers.noBody()).build(), 1);
    }

    /** A file's content: the output or error lines of a batch. */
    String content(String fileId, String what) throws Failure, InterruptedException {
        return send(what, builder("/files/" + fileId + "/content").GET().build());
    }

    private JsonNode json(String what, HttpRequest request) throws Failure, InterruptedException {
        String body = send(what, request);
        try {
            JsonNode node = Json.MAPPER.readTree(body);
            if (node == null || !node.isObject()) {
                throw new Failure(settings.modelKey + ": " + what + " answered something that is not a JSON object: "
                        + OpenAiClient.excerpt(redactor, body));
            }
            return node;
        }
        catch (JsonProcessingException e) {
            throw new Failure(settings.modelKey + ": " + what + " answered invalid JSON: "
                    + OpenAiClient.excerpt(redactor, body));
        }
    }

    private String id(JsonNode node, String what) throws Failure {
        JsonNode id = node.path("id");
        if (!id.isTextual() || id.asText().isBlank()) {
            throw new Failure(settings.modelKey + ": " + what + " answered no id: "
                    + OpenAiClient.excerpt(redactor, node.toString()));
        }
        return id.asText();
    }

    /** One request with the model's retries; the 2xx body. */
    private String send(String what, HttpRequest request) throws Failure, InterruptedException {
        return send(what, request, settings.maxRetries + 1);
    }

    private String send(String what, HttpRequest request, int attempts) throws Failure, InterruptedException {
        String lastError = "";
        for (int attempt = 1; attempt <= attempts; attempt++) {
            Duration wait;
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                int status = response.statusCode();
                if (status >= 200 && status < 300) {
                    return response.body();
                }
                lastError = "HTTP " + status + ": " + OpenAiClient.excerpt(redactor, String.valueOf(response.body()));
                if (!(status == 408 || status == 429 || status >= 500)) {
                    throw new Failure(settings.modelKey + ": " + what + " failed (not retried): " + lastError);
                }
                wait = backoff.retryAfter(response.headers()).orElse(backoff.delay(attempt));
            }
            catch (HttpTimeoutException e) {
                lastError = "no response from " + OpenAiClient.address(request.uri()) + " within "
                        + settings.requestTimeout.toSeconds() + " s";
                wait = backoff.delay(attempt);
            }
            catch (IOException e) {
                lastError = "connection error calling " + OpenAiClient.address(request.uri()) + ": "
                        + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + redactor.redact(e.getMessage()));
                wait = backoff.delay(attempt);
            }
            if (attempt < attempts) {
                Thread.sleep(wait.toMillis());
            }
        }
        throw new Failure(settings.modelKey + ": " + what + " failed after " + attempts
                + (attempts == 1 ? " attempt" : " attempts") + "; last error: " + lastError);
    }

    private HttpRequest.Builder builder(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path + query))
                .timeout(settings.requestTimeout).header("Accept", "application/json");
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
        return builder;
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return Json.MAPPER.writeValueAsBytes(node);
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
