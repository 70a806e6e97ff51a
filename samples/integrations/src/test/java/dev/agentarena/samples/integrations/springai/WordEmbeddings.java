package dev.agentarena.samples.integrations.springai;

import java.util.List;
import java.util.Locale;

import org.springframework.ai.document.Document;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;

/**
 * Embeddings offline, for an app's {@code SimpleVectorStore} in the samples: each word of four letters or more adds to
 * one of 64 dimensions, and vectors are normalised, so texts that share words are near.
 */
public final class WordEmbeddings implements EmbeddingModel {

    private static final int DIMENSIONS = 64;

    @Override
    public EmbeddingResponse call(EmbeddingRequest request) {
        List<String> texts = request.getInstructions();
        return new EmbeddingResponse(texts.stream().map(t -> new Embedding(vector(t), texts.indexOf(t))).toList());
    }

    @Override
    public float[] embed(Document document) {
        return vector(document.getText());
    }

    @Override
    public int dimensions() {
        return DIMENSIONS;
    }

    static float[] vector(String text) {
        float[] vector = new float[DIMENSIONS];
        for (String word : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (word.length() > 3) {
                vector[Math.floorMod(word.hashCode(), DIMENSIONS)] += 1;
            }
        }
        double norm = 0;
        for (float v : vector) {
            norm += v * v;
        }
        for (int i = 0; i < DIMENSIONS && norm > 0; i++) {
            vector[i] /= (float) Math.sqrt(norm);
        }
        return vector;
    }
}
