package dev.agentarena.junit.scoring;

import org.apiguardian.api.API;

/**
 * Turns text into a vector, for the {@code semantic} scorer's cosine similarity.
 *
 * <p>Selected with the option {@code scorers.options.semantic.embedding: <fully qualified class name>}; the class
 * needs a public no-argument constructor. One instance is created per class and shared by every case, so an
 * implementation must be thread-safe. Both texts of a comparison must yield vectors of the same length.
 *
 * <pre>{@code
 * public final class MyEmbeddings implements EmbeddingFunction {
 *     public double[] embed(String text) { return client.embed(text); }
 * }
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface EmbeddingFunction {

    /**
     * The embedding of a text.
     *
     * @param text the text, possibly empty, never {@code null}
     * @return a vector of finite numbers
     */
    double[] embed(String text);
}
