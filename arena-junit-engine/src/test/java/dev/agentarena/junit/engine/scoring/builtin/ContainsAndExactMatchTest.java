package dev.agentarena.junit.engine.scoring.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Verdict;
import dev.agentarena.junit.engine.scoring.TestScoringContext;

class ContainsAndExactMatchTest {

    private final ContainsScorer contains = new ContainsScorer();
    private final ExactMatchScorer exactMatch = new ExactMatchScorer();
    private final ManualScorer manual = new ManualScorer();
    private final TestScoringContext containsContext = TestScoringContext.forScorer("contains");
    private final TestScoringContext exactContext = TestScoringContext.forScorer("exact_match");

    @Test
    void containsAllOrAnyOfAListReference() {
        List<String> reference = List.of("refund", "5 days");

        ScoreResult all = contains.score("Your REFUND is on its way", reference, containsContext);
        ScoreResult any = contains.score("Your REFUND is on its way", reference, containsContext.with("mode", "any"));

        assertThat(all.passed()).isFalse();
        assertThat(all.reason()).isEqualTo("missing '5 days'");
        assertThat(any.passed()).isTrue();
        assertThat(any.reason()).isEqualTo("contains 'refund'");
        assertThatThrownBy(() -> contains.score("x", "x", containsContext.with("mode", "most")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("most");
    }

    @Test
    void containsNormalisesUnicodeAndHonoursCaseSensitivity() {
        assertThat(contains.score("Grüße aus ＫÖＬＮ", "köln", containsContext).passed()).isTrue();
        assertThat(contains.score("I\u0307stanbul", "i\u0307stanbul", containsContext).passed()).isTrue();
        assertThat(contains.score("Refund", "refund", containsContext.with("case_sensitive", true)).passed()).isFalse();
        assertThat(contains.score("", "a", containsContext).passed()).isFalse();
        assertThat(contains.score("a", null, containsContext)).isNull();
    }

    @Test
    void exactMatchIsCasePunctuationAndWhitespaceInsensitiveByDefault() {
        assertThat(exactMatch.score("  Paris!!\n", "paris", exactContext).passed()).isTrue();
        assertThat(exactMatch.score("Paris", "paris", exactContext.with("case_sensitive", true)).passed()).isFalse();
        assertThat(exactMatch.score("Ünïcödé", "U\u0308NI\u0308CO\u0308DE\u0301", exactContext).passed()).isTrue();
        ScoreResult huge = exactMatch.score("x".repeat(5_000_000), "y", exactContext);
        assertThat(huge.passed()).isFalse();
        assertThat(huge.reason().length()).isLessThan(450);
        assertThatThrownBy(() -> exactMatch.score("a", "a", exactContext.with("ignore_punctuation", "maybe")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ignore_punctuation").hasMessageContaining("exact_match")
                .hasMessageContaining("maybe");
    }

    @Test
    void manualIsAlwaysUnscoredHalf() {
        ScoreResult result = manual.score("anything", "whatever", TestScoringContext.forScorer("manual"));

        assertThat(result.score()).isEqualTo(0.5);
        assertThat(result.verdict()).isEqualTo(Verdict.UNSCORED);
        assertThat(result.reason()).isEqualTo("collected for human grading");
    }

    @Test
    void everyBuiltinIsListed() {
        // llm_judge joins with the judge; the other nine are these.
        assertThat(BuiltinScorers.all()).extracting(s -> s.name()).contains("classification", "exact_match",
                "contains", "regex", "numeric", "json_match", "semantic", "code_exec", "manual").doesNotHaveDuplicates();
    }
}
