package dev.agentarena.junit.engine.models.recording;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.CacheMode;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.RetrievedPassage;

/**
 * The passages one case run retrieved, recorded with the case ({@code "retrieved"} of its model's recording file, by
 * repeat) and, where the mode replays, checked against the recording: the task runs again on replay, its retrieval
 * too, and a retrieval that is not the recorded one is a miss naming the passages that changed, as a changed model
 * call is. A case with no recording file (a simulated model answering live) is not checked; in {@code read-write} a
 * changed retrieval is recorded anew.
 */
final class RecordedRetrieval {

    /** The source key of LangChain4j's embedding id, not compared on replay. */
    private static final String EMBEDDING_ID = "embedding_id";

    private RecordedRetrieval() {
    }

    static void check(RecordingCache cache, String modelKey, String caseId, int repeat,
            List<RetrievedPassage> passages) {
        CacheMode mode = cache.mode();
        if (mode == CacheMode.OFF) {
            return;
        }
        RecordingFile file = cache.file(modelKey, caseId);
        if (mode == CacheMode.RECORD) {
            store(cache, file, modelKey, caseId, repeat, passages);
            return;
        }
        if (!file.exists()) {
            if (mode == CacheMode.READ_WRITE && !passages.isEmpty()) {
                store(cache, file, modelKey, caseId, repeat, passages);
            }
            return;
        }
        JsonNode recorded = file.retrieved(repeat);
        if (recorded.isEmpty() && passages.isEmpty()) {
            return;
        }
        List<String> changes = changes(recorded, written(passages));
        if (changes.isEmpty()) {
            return;
        }
        if (mode == CacheMode.READ_WRITE) {
            store(cache, file, modelKey, caseId, repeat, passages);
            return;
        }
        throw new ModelCallException("The retrieval of case '" + caseId + "', repeat " + repeat + " (model '"
                + modelKey + "') is not the one recorded in " + file.path() + ": " + RequestChanges.summary(changes)
                + ". Record it with -D" + Constants.CACHE_MODE + "=record (or read-write), and commit the recording.");
    }

    private static void store(RecordingCache cache, RecordingFile file, String modelKey, String caseId, int repeat,
            List<RetrievedPassage> passages) {
        ArrayNode written = written(passages);
        if (!passages.isEmpty()) {
            Optional<String> secret = cache.secretIn(written.toString());
            if (secret.isPresent()) {
                throw new ModelCallException("Not recorded: the passages retrieved for case '" + caseId + "', repeat "
                        + repeat + " (model '" + modelKey + "') hold " + secret.get() + ", and recordings are written "
                        + "in clear under " + cache.directory() + " to be committed. Keep the secret out of the "
                        + "corpus, or run this eval with " + Constants.CACHE_MODE + "=off.");
            }
        }
        file.storeRetrieved(repeat, written);
    }

    /** The passages as the file holds them: rank, id, score, text, source; read back as a file's would be. */
    private static ArrayNode written(List<RetrievedPassage> passages) {
        List<Map<String, Object>> list = new ArrayList<>(passages.size());
        for (RetrievedPassage passage : passages) {
            Map<String, Object> value = new LinkedHashMap<>();
            value.put("rank", passage.rank());
            value.put("id", passage.id());
            if (passage.score() != null) {
                value.put("score", passage.score());
            }
            value.put("text", passage.text());
            if (!passage.source().isEmpty()) {
                value.put("source", passage.source());
            }
            list.add(value);
        }
        try {
            // through text, so that a float or an int of the source compares as the file's double or long would
            return (ArrayNode) Json.MAPPER.readTree(Json.MAPPER.writeValueAsString(list));
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException("passages as JSON: " + e.getMessage(), e);
        }
    }

    /** What changed, passage by passage in rank order: new, gone, another id, another text, score, rank or source. */
    static List<String> changes(JsonNode recorded, JsonNode now) {
        List<String> changes = new ArrayList<>();
        for (int i = 0; i < Math.max(recorded.size(), now.size()); i++) {
            JsonNode was = recorded.path(i);
            JsonNode is = now.path(i);
            String at = "passage " + (i + 1);
            if (was.isMissingNode()) {
                changes.add(at + " ('" + shown(is.path("id").asText()) + "') is new");
            }
            else if (is.isMissingNode()) {
                changes.add(at + " ('" + shown(was.path("id").asText()) + "') is no longer retrieved");
            }
            else if (!was.path("id").asText().equals(is.path("id").asText())) {
                changes.add(at + ": recorded '" + shown(was.path("id").asText()) + "', now '"
                        + shown(is.path("id").asText()) + "'");
            }
            else {
                List<String> fields = new ArrayList<>();
                if (!was.path("text").asText().equals(is.path("text").asText())) {
                    String[] excerpts = RequestChanges.excerpts(was.path("text").asText(), is.path("text").asText());
                    fields.add("text: recorded '" + shown(excerpts[0]) + "', now '" + shown(excerpts[1]) + "'");
                }
                for (String field : List.of("rank", "score", "source")) {
                    if (!RequestChanges.same(compared(was, field), compared(is, field))) {
                        fields.add(field + ": recorded " + value(compared(was, field)) + ", now "
                                + value(compared(is, field)));
                    }
                }
                if (!fields.isEmpty()) {
                    changes.add(at + " ('" + shown(is.path("id").asText()) + "') " + String.join(", ", fields));
                }
            }
        }
        return changes;
    }

    /**
     * A passage's field as replay compares it: the source without {@code embedding_id}, the store's own key, which an
     * in-memory store ({@code InMemoryEmbeddingStore.add(embedding, segment)}) draws at random on every run; the
     * passage's id, compared already, is what names it.
     */
    private static JsonNode compared(JsonNode passage, String field) {
        JsonNode value = passage.path(field);
        if (field.equals("source") && value instanceof ObjectNode source && source.has(EMBEDDING_ID)) {
            ObjectNode without = source.deepCopy();
            without.remove(EMBEDDING_ID);
            return without.isEmpty() ? MissingNode.getInstance() : without;
        }
        return value;
    }

    private static String value(JsonNode node) {
        return node.isMissingNode() || node.isNull() ? "(none)" : shown(node.toString());
    }

    /** A text as a one-line message shows it: control characters as '?', at most 120 characters. */
    private static String shown(String text) {
        String cut = text.length() > 120 ? text.substring(0, 119) + "…" : text;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
