package dev.agentarena.samples.rag.apps;

import java.util.ArrayList;
import java.util.List;

import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.BatchingStrategy;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingOptions;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

import dev.agentarena.samples.rag.retrieval.MiniLm;
import dev.langchain4j.data.segment.TextSegment;

/**
 * A Spring AI {@code EmbeddingModel} over LangChain4j's in-process all-MiniLM-L6-v2, so a Spring AI vector store
 * embeds offline, with no key, and shares the sample's embedding cache. A document is embedded by its text alone.
 */
public final class MiniLmSpringEmbeddingModel implements EmbeddingModel {

    @Override
    public EmbeddingResponse call(EmbeddingRequest request) {
        List<Embedding> embeddings = new ArrayList<>();
        List<String> texts = request.getInstructions();
        for (int i = 0; i < texts.size(); i++) {
            embeddings.add(new Embedding(MiniLm.vector(texts.get(i)), i));
        }
        return new EmbeddingResponse(embeddings);
    }

    @Override
    public float[] embed(Document document) {
        return MiniLm.vector(document.getText());
    }

    @Override
    public List<float[]> embed(List<Document> documents, EmbeddingOptions options, BatchingStrategy batching) {
        MiniLm.model().embedAll(documents.stream()
                .map(d -> TextSegment.from(d.getText())).toList());
        return documents.stream().map(this::embed).toList();
    }

    @Override
    public int dimensions() {
        return 384;
    }
}
