package dev.agentarena.junit.engine.models.recording;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ToolCall;

/**
 * The recordings of one model and one case: a pretty-printed JSON file whose entries are sorted by request digest
 * and repeat, so that re-recording rewrites only what changed. An entry also says which call of the case it was
 * ({@code step}, from 1; absent in recordings made before the engine counted calls), so that a request that is not
 * recorded can be set against the one recorded at its place.
 *
 * <p>Threads share one instance per file and take turns; each write replaces the whole file atomically, so a reader
 * never sees half a file.
 */
final class RecordingFile {

    /** An entry's key. */
    record Key(String digest, int repeat) {
    }

    /** A recorded request: which call of the case it was (0 when the recording does not say) and what it asked. */
    record Recorded(int step, JsonNode request) {
    }

    private static final Comparator<Key> ORDER = Comparator.comparing(Key::digest).thenComparingInt(Key::repeat);
    private static final ObjectWriter WRITER = Json.MAPPER.writer(new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n")));

    private final Path path;
    private final String modelKey;
    private final String caseId;
    private Map<Key, ObjectNode> entries;
    /** The passages each repeat retrieved, by repeat; empty until one is recorded. */
    private final Map<Integer, JsonNode> retrieved = new TreeMap<>();

    RecordingFile(Path path, String modelKey, String caseId) {
        this.path = path;
        this.modelKey = modelKey;
        this.caseId = caseId;
    }

    Path path() {
        return path;
    }

    synchronized Optional<Completion> find(Key key) {
        ObjectNode entry = entries().get(key);
        return entry == null ? Optional.empty() : Optional.of(completion(entry.path("completion")));
    }

    /** The requests recorded for this repeat, in the file's order. */
    synchronized List<Recorded> recorded(int repeat) {
        List<Recorded> recorded = new ArrayList<>();
        entries().forEach((key, entry) -> {
            if (key.repeat() == repeat) {
                recorded.add(new Recorded(entry.path("step").asInt(0), entry.path("request")));
            }
        });
        return recorded;
    }

    /** The repeats anything is recorded for. */
    synchronized SortedSet<Integer> repeats() {
        SortedSet<Integer> repeats = new TreeSet<>();
        entries().keySet().forEach(key -> repeats.add(key.repeat()));
        return repeats;
    }

    /**
     * Records an answer.
     *
     * @param step which call of the case it answers, from 1; 0 when unknown (a call for no case)
     */
    synchronized void store(Key key, int step, Map<String, Object> request, Completion completion) {
        ObjectNode entry = entry(key, step, request);
        ObjectNode answer = entry.putObject("completion");
        answer.put("text", completion.text());
        if (!completion.toolCalls().isEmpty()) {
            ArrayNode calls = answer.putArray("tool_calls");
            for (ToolCall call : completion.toolCalls()) {
                calls.add(Json.MAPPER.valueToTree(RequestDigest.call(call)));
            }
        }
        answer.put("tokens_in", completion.tokensIn());
        answer.put("tokens_out", completion.tokensOut());
        if (completion.cachedTokensIn() > 0) {
            answer.put("cached_tokens_in", completion.cachedTokensIn());
        }
        entries().put(key, entry);
        write();
    }

    /** A new entry: what identifies it and what was asked, without the answer. */
    private static ObjectNode entry(Key key, int step, Map<String, Object> request) {
        ObjectNode entry = Json.MAPPER.createObjectNode();
        entry.put("digest", key.digest());
        entry.put("repeat", key.repeat());
        if (step > 0) {
            entry.put("step", step);
        }
        entry.set("request", Json.MAPPER.valueToTree(request));
        return entry;
    }

    /** Whether the file exists: something of the case was recorded. */
    synchronized boolean exists() {
        return !entries().isEmpty() || !retrieved.isEmpty();
    }

    /** The passages recorded as retrieved by this repeat: an array, empty when it retrieved none. */
    synchronized JsonNode retrieved(int repeat) {
        entries();
        return retrieved.getOrDefault(repeat, Json.MAPPER.createArrayNode());
    }

    /**
     * Records the passages a repeat retrieved (none removes them), and writes the file when that changed it: a case
     * that retrieves nothing, as most do, writes no file.
     */
    synchronized void storeRetrieved(int repeat, JsonNode passages) {
        entries();
        JsonNode before = passages.isEmpty() ? retrieved.remove(repeat) : retrieved.put(repeat, passages);
        if (passages.isEmpty() ? before != null : !passages.equals(before)) {
            write();
        }
    }

    /** The recorded result of a tool call or listing ({@code RecordedTools}), as the entry holds it. */
    synchronized Optional<JsonNode> findResult(Key key) {
        ObjectNode entry = entries().get(key);
        return entry == null || !entry.has("result") ? Optional.empty() : Optional.of(entry.get("result"));
    }

    /** Records the result of a tool call or listing: what was asked, and the result as a JSON-like value. */
    synchronized void storeResult(Key key, int step, Map<String, Object> request, Object result) {
        ObjectNode entry = entry(key, step, request);
        entry.set("result", Json.MAPPER.valueToTree(result));
        entries().put(key, entry);
        write();
    }

    private Map<Key, ObjectNode> entries() {
        if (entries == null) {
            entries = new TreeMap<>(ORDER);
            if (Files.isRegularFile(path)) {
                read();
            }
        }
        return entries;
    }

    private void read() {
        try {
            JsonNode root = Json.MAPPER.readTree(path.toFile());
            for (JsonNode entry : root.path("entries")) {
                entries.put(new Key(entry.path("digest").asText(), entry.path("repeat").asInt()), (ObjectNode) entry);
            }
            root.path("retrieved").fields().forEachRemaining(repeat -> retrieved.put(Integer.valueOf(repeat.getKey()),
                    repeat.getValue()));
        }
        catch (IOException | ClassCastException | NumberFormatException e) {
            throw new ModelCallException("Cannot read the recording " + path + " (an unresolved merge conflict?): "
                    + e.getMessage() + ". Fix or delete it, then record again with -Darena.cache.mode=record.", e);
        }
    }

    private void write() {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("model", modelKey);
        root.put("case", caseId);
        ArrayNode list = root.putArray("entries");
        entries.values().forEach(list::add);
        if (!retrieved.isEmpty()) {
            ObjectNode byRepeat = root.putObject("retrieved");
            retrieved.forEach((repeat, passages) -> byRepeat.set(String.valueOf(repeat), passages));
        }
        try {
            Files.createDirectories(path.getParent());
            Path temporary = Files.createTempFile(path.getParent(), path.getFileName().toString(), ".tmp");
            Files.write(temporary, (WRITER.writeValueAsString(root) + "\n").getBytes(StandardCharsets.UTF_8));
            try {
                Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        catch (IOException e) {
            throw new ModelCallException("Cannot write the recording " + path + ": " + e.getMessage(), e);
        }
    }

    private static Completion completion(JsonNode node) {
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode call : node.path("tool_calls")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> arguments = Json.MAPPER.convertValue(call.path("arguments"), LinkedHashMap.class);
            calls.add(new ToolCall(call.path("name").asText(), arguments, call.path("id").asText("")));
        }
        return Completion.of(node.path("text").asText("")).withToolCalls(calls)
                .withTokens(node.path("tokens_in").asLong(), node.path("tokens_out").asLong())
                .withCachedTokensIn(node.path("cached_tokens_in").asLong(0));
    }
}
