package dev.agentarena.junit.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One passage a retriever handed to the model for a case, as a task reports it with
 * {@link dev.agentarena.junit.TaskOutput#withRetrieved}: scorers read it from
 * {@link dev.agentarena.junit.ScoringContext#retrieved()}, and it is written with the case's results.
 *
 * <p>Invariant: the id is not blank, the text never {@code null}, the rank 0 (not given: the output ranks the passage
 * by its position) or more, the score finite when given, the source an unmodifiable map in its order.
 *
 * @param id the document's or chunk's id, as a dataset's relevant ids name it
 * @param text the passage's text, empty when the retriever gave none
 * @param rank the passage's rank, from 1; 0 until an output places it, which gives it its position
 * @param score the retriever's score (a similarity, a BM25 score), or {@code null} when it gave none
 * @param source where the passage comes from (a file, a page, a URL), as JSON-like values
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record RetrievedPassage(String id, String text, int rank, @Nullable Double score,
        Map<String, @Nullable Object> source) {

    /**
     * Validates and freezes the source.
     *
     * @throws IllegalArgumentException naming the passage, for a blank id, a negative rank or a score not finite
     */
    public RetrievedPassage {
        text = text == null ? "" : text;
        if (id == null) {
            throw new NullPointerException("the retrieved passage " + textStart(text) + " needs an id: the "
                    + "document's or chunk's id");
        }
        if (id.isBlank()) {
            throw new IllegalArgumentException("the retrieved passage " + textStart(text) + " needs an id that is "
                    + "not blank, was '" + id + "': the document's or chunk's id, as a dataset's relevant ids name it");
        }
        if (rank < 0) {
            throw new IllegalArgumentException("passage '" + id + "': rank must be 1 or more (0 ranks it by its "
                    + "position), was " + rank);
        }
        if (score != null && !Double.isFinite(score)) {
            throw new IllegalArgumentException("passage '" + id + "': score must be finite, was " + score);
        }
        source = source == null || source.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(source));
    }

    /** A passage with this id and text, ranked by its position in the output, without score or source. */
    public static RetrievedPassage of(String id, @Nullable String text) {
        return new RetrievedPassage(id, text, 0, null, Map.of());
    }

    /** A copy with this retriever score. */
    public RetrievedPassage withScore(double newScore) {
        return new RetrievedPassage(id, text, rank, newScore, source);
    }

    /**
     * A copy with this rank (from 1) in place of its position in the output: passages may share one (a tie), and an
     * output's passages are in rank order.
     */
    public RetrievedPassage withRank(int newRank) {
        if (newRank < 1) {
            throw new IllegalArgumentException("passage '" + id + "': rank must be 1 or more, was " + newRank);
        }
        return new RetrievedPassage(id, text, newRank, score, source);
    }

    /** A copy with this source metadata in place of what it had. */
    public RetrievedPassage withSource(Map<String, ?> newSource) {
        return new RetrievedPassage(id, text, rank, score, new LinkedHashMap<>(newSource));
    }

    /** Names a passage without an id by the start of its text, control characters shown as '?'. */
    private static String textStart(String text) {
        String start = text.length() > 60 ? text.substring(0, 60) + "…" : text;
        return "with text \"" + start.replaceAll("\\p{Cntrl}", "?") + "\"";
    }
}
