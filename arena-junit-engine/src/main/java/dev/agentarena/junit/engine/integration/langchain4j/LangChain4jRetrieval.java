package dev.agentarena.junit.engine.integration.langchain4j;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.CapturedRetrieval;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.AugmentationResult;
import dev.langchain4j.rag.RetrievalAugmentor;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;

/**
 * LangChain4j's retrieved {@code Content}s as the case's passages; loaded only when {@code langchain4j-core} is
 * present. A content's id is its segment's metadata {@code id}, else its {@code EMBEDDING_ID}, else the engine's
 * ({@link CapturedRetrieval#passage}); its score the retriever's {@code SCORE}; its source the segment's metadata, with
 * {@code embedding_id} and {@code reranked_score} when the content has them.
 */
final class LangChain4jRetrieval {

    /** The metadata key of a segment whose value is the passage's id. */
    static final String ID_KEY = "id";

    private LangChain4jRetrieval() {
    }

    static List<RetrievedPassage> passages(List<?> contents) {
        List<RetrievedPassage> passages = new ArrayList<>(contents.size());
        for (Object content : contents) {
            if (content instanceof Content found) {
                passages.add(passage(found));
            }
        }
        return passages;
    }

    private static RetrievedPassage passage(Content content) {
        TextSegment segment = content.textSegment();
        Map<String, Object> source = new LinkedHashMap<>();
        if (segment != null && segment.metadata() != null) {
            source.putAll(segment.metadata().toMap());
        }
        Map<ContentMetadata, Object> metadata = content.metadata() == null ? Map.of() : content.metadata();
        Object embeddingId = metadata.get(ContentMetadata.EMBEDDING_ID);
        if (embeddingId != null) {
            source.put("embedding_id", String.valueOf(embeddingId));
        }
        Object reranked = metadata.get(ContentMetadata.RERANKED_SCORE);
        if (reranked != null) {
            source.put("reranked_score", reranked);
        }
        Object id = source.get(ID_KEY);
        String passageId = id != null && !String.valueOf(id).isBlank() ? String.valueOf(id)
                : embeddingId == null ? null : String.valueOf(embeddingId);
        Object score = metadata.get(ContentMetadata.SCORE);
        return CapturedRetrieval.passage(passageId, segment == null ? "" : segment.text(),
                score instanceof Number number ? number : null, source);
    }

    /** What a {@code ContentRetriever} or {@code RetrievalAugmentor} bean returned, as passages; empty for others. */
    static List<RetrievedPassage> passagesOf(Object returned) {
        if (returned instanceof AugmentationResult result && result.contents() != null) {
            return passages(result.contents());
        }
        return returned instanceof List<?> contents ? passages(contents) : List.of();
    }

    /** Where a bean's retrieval is captured: an augmentor's contents are what the model saw, a retriever's before. */
    static Optional<CapturedRetrieval.Level> level(Object bean) {
        if (bean instanceof RetrievalAugmentor) {
            return Optional.of(CapturedRetrieval.Level.AUGMENTED);
        }
        return bean instanceof ContentRetriever ? Optional.of(CapturedRetrieval.Level.RETRIEVED) : Optional.empty();
    }

    /** What names an AI service's {@code Result}, kept apart so a class path with langchain4j-core only never loads it. */
    static final class Results {

        private Results() {
        }

        /** An AI service's {@code Result} as the task's output: its content, and its sources as passages. */
        static Optional<TaskOutput> taskOutput(Object returned) {
            if (!(returned instanceof dev.langchain4j.service.Result<?> result)) {
                return Optional.empty();
            }
            TaskOutput output = TaskOutput.of(Json.text(result.content()));
            return Optional.of(result.sources() == null ? output : output.withRetrieved(passages(result.sources())));
        }
    }
}
