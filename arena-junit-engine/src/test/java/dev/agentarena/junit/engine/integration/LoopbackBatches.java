package dev.agentarena.junit.engine.integration;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.agentarena.junit.engine.integration.LoopbackOpenAi.Reply;

/**
 * OpenAI's batch API on loopback, over the same answers as {@link LoopbackOpenAi}: {@code POST /v1/files} (multipart,
 * {@code purpose=batch}), {@code POST /v1/batches}, {@code GET /v1/batches/{id}}, {@code POST
 * /v1/batches/{id}/cancel}, {@code GET /v1/files/{id}/content}, and the live {@code POST /v1/chat/completions}.
 *
 * <p>A batch moves only when it is polled, never with the clock: created {@code validating}, {@code in_progress} at
 * the first poll, then each poll answers {@link #answeredPerPoll} more requests (each by the answer function of its
 * body: a 2xx reply is an output line, another an error line). It {@code completed} once all are answered, or ends
 * {@code expired} at the poll after {@link #expireAfter} are. With {@link #partialOutput} it names its output and error files while
 * still in progress, holding the lines answered so far.
 */
public final class LoopbackBatches implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern BOUNDARY = Pattern.compile("boundary=(\\S+)");

    /** One batch as the server keeps it. */
    public static final class Batch {
        public final String id;
        /** The input lines, parsed. */
        public final List<JsonNode> lines;
        final List<String> output = new ArrayList<>();
        final List<String> errors = new ArrayList<>();
        final String outputFile;
        final String errorFile;
        volatile String status = "validating";
        int answered;
        int failed;

        Batch(String id, List<JsonNode> lines) {
            this.id = id;
            this.lines = lines;
            this.outputFile = "file-out-" + id;
            this.errorFile = "file-err-" + id;
        }

        /** Its status now. */
        public String status() {
            return status;
        }
    }

    /** The batches created, in order. */
    public final List<Batch> batches = new CopyOnWriteArrayList<>();
    /** The bodies of live chat completion requests. */
    public final List<JsonNode> liveRequests = new CopyOnWriteArrayList<>();
    /** The purposes the uploaded files were sent with. */
    public final List<String> purposes = new CopyOnWriteArrayList<>();
    /** The ids of the batches a client asked to cancel. */
    public final List<String> cancelRequests = new CopyOnWriteArrayList<>();

    /** How many more requests of a batch each poll answers; all of them by default. */
    public volatile int answeredPerPoll = Integer.MAX_VALUE;
    /** A batch ends expired once this many requests are answered; never by default. */
    public volatile int expireAfter = Integer.MAX_VALUE;
    /** Whether an unfinished batch names its output and error files (the lines answered so far). */
    public volatile boolean partialOutput;

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Function<JsonNode, Reply> replies;
    private final Map<String, String> files = new ConcurrentHashMap<>();
    private final Map<String, Batch> byId = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();

    private LoopbackBatches(Function<JsonNode, Reply> replies) throws IOException {
        this.replies = replies;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** A server whose requests, live or in a batch, are answered by {@code replies} of their body. */
    public static LoopbackBatches answering(Function<JsonNode, Reply> replies) throws IOException {
        return new LoopbackBatches(replies);
    }

    /** The base URL with {@code /v1}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** The status of the latest batch, or {@code none}. */
    public String latestStatus() {
        return batches.isEmpty() ? "none" : batches.get(batches.size() - 1).status;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            byte[] body = exchange.getRequestBody().readAllBytes();
            Reply reply;
            if (method.equals("POST") && path.equals("/v1/chat/completions")) {
                JsonNode request = JSON.readTree(body);
                liveRequests.add(request);
                reply = replies.apply(request);
            }
            else if (method.equals("POST") && path.equals("/v1/files")) {
                reply = upload(exchange.getRequestHeaders().getFirst("Content-Type"), body);
            }
            else if (method.equals("POST") && path.equals("/v1/batches")) {
                reply = create(JSON.readTree(body));
            }
            else if (method.equals("GET") && path.startsWith("/v1/batches/")) {
                reply = poll(path.substring("/v1/batches/".length()));
            }
            else if (method.equals("POST") && path.startsWith("/v1/batches/") && path.endsWith("/cancel")) {
                String id = path.substring("/v1/batches/".length(), path.length() - "/cancel".length());
                cancelRequests.add(id);
                Batch batch = byId.get(id);
                if (batch != null) {
                    batch.status = "cancelled";
                }
                reply = batch == null ? LoopbackOpenAi.error(404, "no batch " + id) : new Reply(200, describe(batch));
            }
            else if (method.equals("GET") && path.startsWith("/v1/files/") && path.endsWith("/content")) {
                String id = path.substring("/v1/files/".length(), path.length() - "/content".length());
                reply = content(id);
            }
            else {
                reply = LoopbackOpenAi.error(404, "no such path: " + method + " " + path);
            }
            byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(reply.status(), bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
        catch (RuntimeException e) {
            e.printStackTrace();
            throw e;
        }
    }

    private Reply upload(String contentType, byte[] body) {
        Matcher boundary = BOUNDARY.matcher(String.valueOf(contentType));
        if (!boundary.find()) {
            return LoopbackOpenAi.error(400, "not multipart");
        }
        String text = new String(body, StandardCharsets.UTF_8);
        String file = null;
        for (String part : text.split("--" + Pattern.quote(boundary.group(1)))) {
            int split = part.indexOf("\r\n\r\n");
            if (split < 0) {
                continue;
            }
            String headers = part.substring(0, split);
            String content = part.substring(split + 4);
            content = content.endsWith("\r\n") ? content.substring(0, content.length() - 2) : content;
            if (headers.contains("name=\"purpose\"")) {
                purposes.add(content);
            }
            else if (headers.contains("name=\"file\"")) {
                file = content;
            }
        }
        if (file == null) {
            return LoopbackOpenAi.error(400, "no file part");
        }
        String id = "file-in-" + ids.incrementAndGet();
        files.put(id, file);
        return new Reply(200, JSON.createObjectNode().put("id", id).put("object", "file").put("purpose", "batch")
                .toString());
    }

    private Reply create(JsonNode request) throws IOException {
        String input = files.get(request.path("input_file_id").asText());
        if (input == null) {
            return LoopbackOpenAi.error(400, "no such input file");
        }
        if (!request.path("endpoint").asText().equals("/v1/chat/completions")) {
            return LoopbackOpenAi.error(400, "unsupported endpoint " + request.path("endpoint"));
        }
        List<JsonNode> lines = new ArrayList<>();
        for (String line : input.split("\n")) {
            if (!line.isBlank()) {
                lines.add(JSON.readTree(line));
            }
        }
        Batch batch = new Batch("batch_" + ids.incrementAndGet(), lines);
        byId.put(batch.id, batch);
        batches.add(batch);
        return new Reply(200, describe(batch));
    }

    private Reply poll(String id) {
        Batch batch = byId.get(id);
        if (batch == null) {
            return LoopbackOpenAi.error(404, "no batch " + id);
        }
        synchronized (batch) {
            if (batch.status.equals("validating")) {
                batch.status = "in_progress";
            }
            else if (batch.status.equals("in_progress") && batch.answered >= expireAfter) {
                batch.status = "expired";
            }
            else if (batch.status.equals("in_progress")) {
                int target = (int) Math.min((long) batch.answered + answeredPerPoll, batch.lines.size());
                while (batch.answered < target && batch.answered < expireAfter) {
                    answer(batch, batch.lines.get(batch.answered));
                    batch.answered++;
                }
                if (batch.answered >= batch.lines.size()) {
                    batch.status = "completed";
                }
            }
            return new Reply(200, describe(batch));
        }
    }

    private void answer(Batch batch, JsonNode line) {
        Reply reply = replies.apply(line.path("body"));
        ObjectNode out = JSON.createObjectNode();
        out.put("id", "batch_req_" + ids.incrementAndGet()).put("custom_id", line.path("custom_id").asText());
        ObjectNode response = out.putObject("response");
        response.put("status_code", reply.status()).put("request_id", "req_" + ids.get());
        try {
            response.set("body", JSON.readTree(reply.body()));
        }
        catch (IOException e) {
            response.put("body", reply.body());
        }
        out.putNull("error");
        if (reply.status() == 200) {
            batch.output.add(out.toString());
        }
        else {
            batch.errors.add(out.toString());
            batch.failed++;
        }
    }

    private String describe(Batch batch) {
        synchronized (batch) {
            ObjectNode node = JSON.createObjectNode();
            node.put("id", batch.id).put("object", "batch").put("endpoint", "/v1/chat/completions")
                    .put("status", batch.status).put("completion_window", "24h");
            boolean ended = !batch.status.equals("validating") && !batch.status.equals("in_progress");
            if ((ended || partialOutput) && !batch.output.isEmpty()) {
                node.put("output_file_id", batch.outputFile);
            }
            else {
                node.putNull("output_file_id");
            }
            if ((ended || partialOutput) && !batch.errors.isEmpty()) {
                node.put("error_file_id", batch.errorFile);
            }
            else {
                node.putNull("error_file_id");
            }
            node.putObject("request_counts").put("total", batch.lines.size())
                    .put("completed", batch.answered - batch.failed).put("failed", batch.failed);
            return node.toString();
        }
    }

    private Reply content(String id) {
        for (Batch batch : batches) {
            synchronized (batch) {
                if (id.equals(batch.outputFile)) {
                    return new Reply(200, String.join("\n", batch.output) + "\n");
                }
                if (id.equals(batch.errorFile)) {
                    return new Reply(200, String.join("\n", batch.errors) + "\n");
                }
            }
        }
        String file = files.get(id);
        return file == null ? LoopbackOpenAi.error(404, "no file " + id) : new Reply(200, file);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
