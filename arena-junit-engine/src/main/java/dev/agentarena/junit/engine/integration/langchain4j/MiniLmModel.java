package dev.agentarena.junit.engine.integration.langchain4j;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;

/** The part of {@link LocalEmbeddings} that names LangChain4j types; one model per JVM, created on first use. */
final class MiniLmModel {

    private MiniLmModel() {
    }

    /** The holder idiom: the class initialiser runs once, on first use, and every thread sees its result. */
    private static final class Holder {
        static final EmbeddingModel MODEL = new AllMiniLmL6V2EmbeddingModel();
    }

    static double[] embed(String text) {
        float[] vector = Holder.MODEL.embed(text).content().vector();
        double[] result = new double[vector.length];
        for (int i = 0; i < vector.length; i++) {
            result[i] = vector[i];
        }
        return result;
    }
}
