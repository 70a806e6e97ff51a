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
    /** The lexical measure, chosen explicitly: all-MiniLM-L6-v2 is on this module's test class path. */
    private final TestScoringContext lexical = context.with("embedding", "token_set");

    @Test
    void tokenSetCosineIsIntersectionOverGeometricMean() {
        // {the, cat, sat} vs {the, cat, ran, away}: 2 / sqrt(3 * 4)
        ScoreResult result = scorer.score("The cat sat.", "the CAT ran away", lexical);

        assertThat(result.score()).isCloseTo(2 / Math.sqrt(12), within(1e-12));
        assertThat(result.passed()).isFalse();
        assertThat(result.reason()).isEqualTo("similarity 0.58 < threshold 0.80 (lexical token-set cosine)");
        assertThat(result.detail()).containsEntry("method", "token_set");
    }

    @Test
    void tokensAreSetsSoRepetitionAndOrderDoNotMatter() {
        assertThat(scorer.score("cat cat cat sat", "sat cat", lexical).score()).isEqualTo(1.0);
        assertThat(scorer.score("Ünïcödé façade", "U\u0308NI\u0308CO\u0308DE\u0301 FAÇADE", lexical).score())
                .isEqualTo(1.0);
    }

    @Test
    void thresholdOption() {
        assertThat(scorer.score("The cat sat.", "the CAT ran away", lexical.with("threshold", 0.5)).passed()).isTrue();
        assertThatThrownBy(() -> scorer.score("a", "b", context.with("threshold", 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threshold");
        assertThatThrownBy(() -> scorer.score("a", "b", context.with("threshold", "high")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"high\"");
    }

    @Test
    void emptyTexts() {
        assertThat(scorer.score("", "", lexical).score()).isEqualTo(1.0);
        assertThat(scorer.score("...", "cat", lexical).score()).isZero();
        assertThat(scorer.score("cat", null, lexical)).isNull();
        // the embeddings treat blank texts alike: an empty answer is no paraphrase
        assertThat(scorer.score("", "", context).score()).isEqualTo(1.0);
        assertThat(scorer.score(" ", "cat", context).score()).isZero();
        assertThat(scorer.score("cat", null, context)).isNull();
    }

    @Test
    void byDefaultTheInProcessEmbeddingsScoreAndTheResultSaysSo() {
        ScoreResult result = scorer.score("Refunds are available for a month after you buy.",
                "You can get your money back within 30 days of purchase.", context);

        assertThat(result.detail()).containsEntry("method", "all-minilm-l6-v2");
        assertThat(result.reason()).matches("similarity 0\\.\\d\\d >= threshold 0\\.60 \\(all-MiniLM-L6-v2 embeddings\\)");
        assertThat(result.passed()).isTrue();
        assertThat(scorer.score("a b", "a b", context.with("embedding", "all-minilm-l6-v2")).score())
                .isCloseTo(1.0, within(1e-6));
        // an explicit threshold still wins
        assertThat(scorer.score("Refunds are available for a month after you buy.",
                "You can get your money back within 30 days of purchase.", context.with("threshold", 0.8)).passed())
                .isFalse();
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

        assertThat(scorer.score(huge, "lorem ipsum dolor", lexical).score()).isCloseTo(3 / Math.sqrt(12),
                within(1e-12));
        // the embeddings read the start of a flood only: the call returns, with the measure of that start
        ScoreResult embedded = scorer.score(huge, "lorem ipsum dolor", context);
        assertThat(embedded.score()).isEqualTo(scorer.score(huge.substring(0, SemanticScorer.EMBEDDING_MAX_CHARS),
                "lorem ipsum dolor", context).score());
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
