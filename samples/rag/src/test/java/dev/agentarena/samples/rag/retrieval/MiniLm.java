package dev.agentarena.samples.rag.retrieval;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.output.Response;

/**
 * all-MiniLM-L6-v2 sentence embeddings, in process (LangChain4j's ONNX model), with every text's embedding kept for
 * the JVM: the corpus is embedded once, and the Lucene index, the LangChain4j store and the Spring AI store all reuse
 * those vectors, as do questions asked again. Vectors committed with the sample ({@link EmbeddingCache}) are not
 * computed at all.
 *
 * <p>Invariant: one ONNX model per JVM; a text's vector is computed at most once.
 */
public final class MiniLm implements EmbeddingModel {

    private static final MiniLm INSTANCE = new MiniLm();
    private static final Map<String, float[]> COMMITTED = EmbeddingCache.load();
    private static final Map<String, float[]> VECTORS = new ConcurrentHashMap<>();

    private MiniLm() {
    }

    /** The model as a LangChain4j {@code EmbeddingModel}, for a LangChain4j store or content retriever. */
    public static MiniLm model() {
        return INSTANCE;
    }

    /** The embedding of a text: 384 floats of unit length, from the committed vectors when they have it. */
    public static float[] vector(String text) {
        return VECTORS.computeIfAbsent(text, t -> EmbeddingCache.find(COMMITTED, t).orElseGet(() -> computed(t)));
    }

    /** The embedding the model computes now, bypassing every cache. */
    static float[] computed(String text) {
        return Onnx.MODEL.embed(text).content().vector();
    }

    /** Whether the committed vectors hold this text. */
    static boolean committed(String text) {
        return EmbeddingCache.find(COMMITTED, text).isPresent();
    }

    /** Embeds the texts not seen yet in one batch, then answers from the cache. */
    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        List<TextSegment> missing = segments.stream()
                .filter(s -> !VECTORS.containsKey(s.text()) && !committed(s.text())).distinct().toList();
        if (!missing.isEmpty()) {
            List<Embedding> embeddings = Onnx.MODEL.embedAll(missing).content();
            for (int i = 0; i < missing.size(); i++) {
                VECTORS.put(missing.get(i).text(), embeddings.get(i).vector());
            }
        }
        return Response.from(segments.stream().map(s -> Embedding.from(vector(s.text()))).toList());
    }

    /** The ONNX model, loaded on first use: a build whose texts are all committed never loads it. */
    private static final class Onnx {

        static final AllMiniLmL6V2EmbeddingModel MODEL = new AllMiniLmL6V2EmbeddingModel();
    }

    @Override
    public int dimension() {
        return 384;
    }
}
