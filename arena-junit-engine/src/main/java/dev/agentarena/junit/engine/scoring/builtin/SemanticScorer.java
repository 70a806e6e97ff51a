package dev.agentarena.junit.engine.scoring.builtin;

import java.lang.reflect.InvocationTargetException;
import java.text.Normalizer;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.scoring.EmbeddingFunction;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code semantic}: similarity of output and reference, passed at {@code threshold}, by the measure option
 * {@code embedding} names ({@code auto}: all-MiniLM-L6-v2 when on the class path, else the token-set cosine; or an
 * {@link EmbeddingFunction}); every result says which measure scored (detail {@code method}, and the reason). The
 * measures and thresholds: the {@code semantic} section of {@code docs/architecture/scoring.md}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SemanticScorer implements OutputScorer {

    /** The default threshold with all-MiniLM-L6-v2: between its paraphrases and unrelated answers. */
    static final double EMBEDDING_THRESHOLD = 0.6;
    /** The default threshold of the other measures. */
    static final double DEFAULT_THRESHOLD = 0.8;

    /**
     * How much of each text all-MiniLM-L6-v2 reads: it was trained on sentences and short paragraphs, and a flood of
     * output would otherwise take seconds to embed.
     */
    static final int EMBEDDING_MAX_CHARS = 2_000;

    static final String AUTO = "auto";
    static final String TOKEN_SET = "token_set";

    private static final Map<String, EmbeddingFunction> EMBEDDINGS = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return "semantic";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        if (reference == null) {
            return null;
        }
        String actual = output == null ? "" : output;
        String expected = Json.text(reference);
        String embedding = context.options().getString("embedding", AUTO);
        if (embedding.equals(AUTO)) {
            embedding = Integrations.localEmbeddingModel().orElse(TOKEN_SET);
        }
        double similarity;
        String measure;
        if (embedding.equals(TOKEN_SET)) {
            similarity = tokenSetCosine(actual, expected);
            measure = "lexical token-set cosine";
        }
        else if (embedding.equals(Integrations.localEmbeddingModelName())) {
            similarity = localEmbeddingCosine(actual, expected);
            measure = "all-MiniLM-L6-v2 embeddings";
        }
        else {
            EmbeddingFunction function = EMBEDDINGS.computeIfAbsent(embedding, SemanticScorer::instantiate);
            similarity = Math.max(0.0, vectorCosine(embedding, function.embed(actual), function.embed(expected)));
            measure = "embeddings of " + embedding;
        }
        double threshold = context.options().getDouble("threshold",
                embedding.equals(Integrations.localEmbeddingModelName()) ? EMBEDDING_THRESHOLD : DEFAULT_THRESHOLD);
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new IllegalArgumentException("option 'threshold' of scorer 'semantic' must lie in [0, 1], but was "
                    + threshold);
        }
        boolean passed = similarity >= threshold;
        String reason = String.format(Locale.ROOT, "similarity %.2f %s threshold %.2f (%s)", similarity,
                passed ? ">=" : "<", threshold, measure);
        return ScoreResult.of(similarity, passed).withReason(reason).withDetail("similarity", similarity)
                .withDetail("method", embedding);
    }

    /** The cosine of two texts' all-MiniLM-L6-v2 embeddings; blank texts as for the token set. */
    static double localEmbeddingCosine(String a, String b) {
        if (a.isBlank() || b.isBlank()) {
            return a.isBlank() && b.isBlank() ? 1.0 : 0.0;
        }
        return Math.max(0.0, vectorCosine(Integrations.localEmbeddingModelName(), Integrations.localEmbedding(head(a)),
                Integrations.localEmbedding(head(b))));
    }

    /** The start of a text, at most {@value #EMBEDDING_MAX_CHARS} characters, without splitting a surrogate pair. */
    private static String head(String text) {
        if (text.length() <= EMBEDDING_MAX_CHARS) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(EMBEDDING_MAX_CHARS - 1)) ? EMBEDDING_MAX_CHARS - 1
                : EMBEDDING_MAX_CHARS;
        return text.substring(0, end);
    }

    static double tokenSetCosine(String a, String b) {
        Set<String> left = tokens(a);
        Set<String> right = tokens(b);
        if (left.isEmpty() && right.isEmpty()) {
            return 1.0;
        }
        if (left.isEmpty() || right.isEmpty()) {
            return 0.0;
        }
        Set<String> common = new HashSet<>(left);
        common.retainAll(right);
        // Rounding can land a hair above 1 for identical sets.
        return Math.min(1.0, common.size() / Math.sqrt((double) left.size() * right.size()));
    }

    private static Set<String> tokens(String text) {
        Set<String> tokens = new HashSet<>();
        String folded = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        for (String token : folded.split("[^\\p{L}\\p{N}\\p{M}]+")) {
            if (!token.isEmpty()) {
                tokens.add(token);
            }
        }
        return tokens;
    }

    private static double vectorCosine(String embedding, double[] a, double[] b) {
        if (a == null || b == null || a.length != b.length) {
            throw new IllegalStateException("embedding " + embedding + " returned vectors of different lengths ("
                    + (a == null ? "null" : a.length) + " and " + (b == null ? "null" : b.length) + ")");
        }
        double dot = 0;
        double normA = 0;
        double normB = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            normA += a[i] * a[i];
            normB += b[i] * b[i];
        }
        if (!Double.isFinite(dot) || !Double.isFinite(normA) || !Double.isFinite(normB)) {
            throw new IllegalStateException("embedding " + embedding + " returned a non-finite vector");
        }
        if (normA == 0 || normB == 0) {
            return 0.0;
        }
        return Math.min(1.0, dot / (Math.sqrt(normA) * Math.sqrt(normB)));
    }

    private static EmbeddingFunction instantiate(String className) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try {
            Class<?> type = Class.forName(className, true, loader != null ? loader
                    : SemanticScorer.class.getClassLoader());
            if (!EmbeddingFunction.class.isAssignableFrom(type)) {
                throw new IllegalArgumentException("option 'embedding' of scorer 'semantic': " + className
                        + " does not implement " + EmbeddingFunction.class.getName());
            }
            return (EmbeddingFunction) type.getConstructor().newInstance();
        }
        catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("option 'embedding' of scorer 'semantic': class " + className
                    + " not found", e);
        }
        catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("option 'embedding' of scorer 'semantic': " + className
                    + " needs a public no-argument constructor", e);
        }
        catch (InvocationTargetException e) {
            throw new IllegalStateException("cannot create embedding " + className + ": " + e.getCause(), e.getCause());
        }
        catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create embedding " + className + ": " + e, e);
        }
    }
}
