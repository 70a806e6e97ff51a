package dev.agentarena.junit.engine.scoring.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.engine.scoring.TestScoringContext;
import dev.agentarena.junit.scoring.EmbeddingFunction;

class SemanticScorerTest {

    private final SemanticScorer scorer = new SemanticScorer();
    private final TestScoringContext context = TestScoringContext.forScorer("semantic");

    @Test
    void tokenSetCosineIsIntersectionOverGeometricMean() {
        // {the, cat, sat} vs {the, cat, ran, away}: 2 / sqrt(3 * 4)
        ScoreResult result = scorer.score("The cat sat.", "the CAT ran away", context);

        assertThat(result.score()).isCloseTo(2 / Math.sqrt(12), within(1e-12));
        assertThat(result.passed()).isFalse();
        assertThat(result.reason()).isEqualTo("similarity 0.58 < threshold 0.80");
        assertThat(result.detail()).containsEntry("method", "token_set");
    }

    @Test
    void tokensAreSetsSoRepetitionAndOrderDoNotMatter() {
        assertThat(scorer.score("cat cat cat sat", "sat cat", context).score()).isEqualTo(1.0);
        assertThat(scorer.score("Ünïcödé façade", "U\u0308NI\u0308CO\u0308DE\u0301 FAÇADE", context).score())
                .isEqualTo(1.0);
    }

    @Test
    void thresholdOption() {
        assertThat(scorer.score("The cat sat.", "the CAT ran away", context.with("threshold", 0.5)).passed()).isTrue();
        assertThatThrownBy(() -> scorer.score("a", "b", context.with("threshold", 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threshold");
        assertThatThrownBy(() -> scorer.score("a", "b", context.with("threshold", "high")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"high\"");
    }

    @Test
    void emptyTexts() {
        assertThat(scorer.score("", "", context).score()).isEqualTo(1.0);
        assertThat(scorer.score("...", "cat", context).score()).isZero();
        assertThat(scorer.score("cat", null, context)).isNull();
    }

    @Test
    void aPluggedEmbeddingGivesTheVectorCosine() {
        TestScoringContext embedded = context.with("embedding", LengthEmbedding.class.getName());

        ScoreResult result = scorer.score("ab", "abcd", embedded);

        // (2, 1) vs (4, 1): 9 / (sqrt 5 * sqrt 17)
        assertThat(result.score()).isCloseTo(9 / (Math.sqrt(5) * Math.sqrt(17)), within(1e-12));
        assertThat(result.detail()).containsEntry("method", LengthEmbedding.class.getName());
    }

    @Test
    void badEmbeddingsAreErrorsNamingTheClass() {
        assertThatThrownBy(() -> scorer.score("a", "b", context.with("embedding", "com.example.Missing")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("com.example.Missing");
        assertThatThrownBy(() -> scorer.score("a", "b", context.with("embedding", String.class.getName())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not implement");
        assertThatThrownBy(() -> scorer.score("a", "bb", context.with("embedding", RaggedEmbedding.class.getName())))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("different lengths");
    }

    @Test
    void hugeOutput() {
        String huge = "word".repeat(10) + " " + "lorem ipsum dolor ".repeat(300_000);

        assertThat(scorer.score(huge, "lorem ipsum dolor", context).score()).isCloseTo(3 / Math.sqrt(12),
                within(1e-12));
    }

    /** A toy embedding: (length, 1). */
    public static final class LengthEmbedding implements EmbeddingFunction {
        @Override
        public double[] embed(String text) {
            return new double[] {text.length(), 1};
        }
    }

    /** Returns vectors whose length depends on the text. */
    public static final class RaggedEmbedding implements EmbeddingFunction {
        @Override
        public double[] embed(String text) {
            return new double[text.length()];
        }
    }
}
