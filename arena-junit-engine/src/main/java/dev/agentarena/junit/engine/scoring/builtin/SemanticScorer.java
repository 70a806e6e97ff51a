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
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.scoring.EmbeddingFunction;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code semantic}: similarity of output and reference, passed at {@code threshold} (default 0.8).
 *
 * <p>By default the token-set cosine: both texts are NFKC-normalised, lower-cased and split into words (runs of
 * letters and digits); with A and B the two sets of words the score is |A∩B| / sqrt(|A|·|B|). Two empty texts are
 * identical (1); one empty text scores 0.
 *
 * <p>With option {@code embedding: <fully qualified class name>} of an {@link EmbeddingFunction} (public no-argument
 * constructor, loaded through the context class loader, one shared instance per class) the score is the cosine of
 * the two vectors, with negative similarities clamped to 0. A {@code null} reference is not applicable. Detail:
 * {@code similarity}, {@code method}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SemanticScorer implements OutputScorer {

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
        double threshold = context.options().getDouble("threshold", 0.8);
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new IllegalArgumentException("option 'threshold' of scorer 'semantic' must lie in [0, 1], but was "
                    + threshold);
        }
        String actual = output == null ? "" : output;
        String expected = Json.text(reference);
        String embedding = context.options().getString("embedding", null);
        double similarity;
        String method;
        if (embedding == null) {
            similarity = tokenSetCosine(actual, expected);
            method = "token_set";
        }
        else {
            EmbeddingFunction function = EMBEDDINGS.computeIfAbsent(embedding, SemanticScorer::instantiate);
            similarity = Math.max(0.0, vectorCosine(embedding, function.embed(actual), function.embed(expected)));
            method = embedding;
        }
        boolean passed = similarity >= threshold;
        String reason = String.format(Locale.ROOT, "similarity %.2f %s threshold %.2f", similarity,
                passed ? ">=" : "<", threshold);
        return ScoreResult.of(similarity, passed).withReason(reason).withDetail("similarity", similarity)
                .withDetail("method", method);
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
