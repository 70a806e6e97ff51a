package dev.agentarena.junit.engine.models;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

import dev.agentarena.junit.model.RetrievedPassage;

/**
 * The passages a chat library's retrieval handed the model while one case's task ran, seen by the engine without the
 * task's help (a Spring AI advisor's documents, a LangChain4j augmentor's or retriever's contents), and the one rule
 * that turns a library's document into a {@link RetrievedPassage} ({@link #passage}).
 *
 * <p>Invariant: what an augmentation step put in the prompt ({@link Level#AUGMENTED}) wins over what retrievers found
 * ({@link Level#RETRIEVED}), which an augmentor may have merged, cut or re-ranked; within a level, passages keep the
 * order they were captured in, several retrievals one after the other. Thread-safe: a library may retrieve on a pool.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class CapturedRetrieval {

    /** Where in a retrieval pipeline a capture was made. */
    public enum Level {
        /** What was put in the model's prompt: an advisor's documents, an augmentor's contents, an answer's sources. */
        AUGMENTED,
        /** What a retriever found, before an augmentor joined, cut or re-ranked it. */
        RETRIEVED
    }

    /** The prefix of a passage id the engine makes from the text, when the library gave the passage none. */
    public static final String TEXT_ID_PREFIX = "text-";

    private final List<RetrievedPassage> augmented = new ArrayList<>();
    private final List<RetrievedPassage> retrieved = new ArrayList<>();

    /** Adds passages captured at this level, after those captured before. */
    public synchronized void add(Level level, List<RetrievedPassage> passages) {
        (level == Level.AUGMENTED ? augmented : retrieved).addAll(passages);
    }

    /** The passages the model was handed: the augmented ones if any, else the retrieved ones; unranked, in order. */
    public synchronized List<RetrievedPassage> passages() {
        return List.copyOf(augmented.isEmpty() ? retrieved : augmented);
    }

    /**
     * A library's document as a passage, ranked by its position: its id when it has a non-blank one, else
     * {@value #TEXT_ID_PREFIX} and 16 hex digits of the SHA-256 of its text (the same text, the same id, on every
     * run); a score that is not finite is dropped (kept as {@code score} in the source), and each source value that is
     * not a string, number, boolean or {@code null} is kept as its {@code toString()}, so it always writes as JSON.
     */
    public static RetrievedPassage passage(@Nullable String id, @Nullable String text, @Nullable Number score,
            @Nullable Map<?, ?> source) {
        String body = text == null ? "" : text;
        Map<String, @Nullable Object> values = new LinkedHashMap<>();
        if (source != null) {
            source.forEach((key, value) -> values.put(String.valueOf(key), jsonValue(value)));
        }
        Double finite = null;
        if (score != null) {
            double value = score.doubleValue();
            if (Double.isFinite(value)) {
                finite = value;
            }
            else {
                values.put("score", String.valueOf(value));
            }
        }
        String passageId = id == null || id.isBlank() ? textId(body) : id;
        return new RetrievedPassage(passageId, body, 0, finite, values);
    }

    /** The id the engine gives a passage without one: {@value #TEXT_ID_PREFIX} and a digest of its text. */
    public static String textId(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return TEXT_ID_PREFIX + HexFormat.of().formatHex(digest, 0, 8);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static @Nullable Object jsonValue(@Nullable Object value) {
        boolean finite = !(value instanceof Double || value instanceof Float)
                || Double.isFinite(((Number) value).doubleValue());
        return value == null || value instanceof String || value instanceof Number && finite
                || value instanceof Boolean ? value : String.valueOf(value);
    }
}
