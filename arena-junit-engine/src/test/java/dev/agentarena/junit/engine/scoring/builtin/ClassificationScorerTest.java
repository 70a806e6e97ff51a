package dev.agentarena.junit.engine.scoring.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.MissingScorerOptionException;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.engine.scoring.TestScoringContext;

class ClassificationScorerTest {

    private static final List<String> LABELS = List.of("billing", "technical", "account", "other");

    private final ClassificationScorer scorer = new ClassificationScorer();
    private final TestScoringContext context = TestScoringContext.forScorer("classification").with("labels", LABELS);

    @Test
    void selectsTheMentionedLabelAndComparesItWithTheReference() {
        ScoreResult right = scorer.score("This looks like a Billing issue.", "billing", context);
        ScoreResult wrong = scorer.score("This looks like a billing issue.", "technical", context);

        assertThat(right.passed()).isTrue();
        assertThat(right.score()).isEqualTo(1.0);
        assertThat(right.reason()).isEqualTo("selected 'billing'");
        assertThat(wrong.passed()).isFalse();
        assertThat(wrong.score()).isZero();
        assertThat(wrong.reason()).isEqualTo("selected 'billing', expected 'technical'");
        assertThat(wrong.detail()).containsEntry("selected", "billing").containsEntry("expected", "technical");
    }

    @Test
    void matchesWholeWordsOnly() {
        ScoreResult result = scorer.score("We rebilling-free... accounting team", "billing", context);

        assertThat(result.passed()).isFalse();
        assertThat(result.reason()).startsWith("no label found");
    }

    @Test
    void prefersAWholeOutputMatchOverEarlierMentions() {
        ScoreResult result = scorer.score("**Technical.**", "technical", context);
        ScoreResult mentioned = scorer.score("Not billing but technical", "billing", context);

        assertThat(result.passed()).isTrue();
        assertThat(mentioned.detail().get("mentioned")).isEqualTo(List.of("billing", "technical"));
        assertThat(mentioned.passed()).as("first mention wins by default").isTrue();
    }

    @Test
    void multipleOptionChoosesLastOrFails() {
        String output = "billing? no: technical, definitely not billing... well, technical";
        ScoreResult last = scorer.score(output, "technical", context.with("multiple", "last"));
        ScoreResult fail = scorer.score(output, "billing", context.with("multiple", "fail"));

        assertThat(last.passed()).isTrue();
        assertThat(fail.passed()).isFalse();
        assertThat(fail.reason()).startsWith("mentions several labels [billing, technical]");
        assertThatThrownBy(() -> scorer.score(output, "billing", context.with("multiple", "random")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiple")
                .hasMessageContaining("random");
    }

    @Test
    void aMentionInsideALongerLabelDoesNotCount() {
        TestScoringContext overlapping = context.with("labels", List.of("technical", "non-technical"));

        ScoreResult result = scorer.score("Clearly non-technical.", "technical", overlapping);

        assertThat(result.reason()).isEqualTo("selected 'non-technical', expected 'technical'");
        assertThat(result.detail().get("mentioned")).isEqualTo(List.of("non-technical"));
    }

    @Test
    void normalisesUnicodeAndCase() {
        TestScoringContext unicode = context.with("labels", List.of("Ünïcödé", "ascii"));
        // Decomposed umlauts (U+0308) and upper case still select the precomposed label.
        String decomposed = "Category: U\u0308NI\u0308CO\u0308DE\u0301";

        assertThat(scorer.score(decomposed, "ünïcödé", unicode).passed()).isTrue();
        assertThat(scorer.score("ＢＩＬＬＩＮＧ", "billing", context).passed()).as("full-width letters, NFKC").isTrue();
    }

    @Test
    void withoutLabelsItNamesTheMissingOptionAndWhereToSetIt() {
        TestScoringContext noLabels = TestScoringContext.forScorer("classification");

        // a low score "no label found" on every case would hide the output; the option is what is wrong
        assertThatThrownBy(() -> scorer.score("I think it is refund.", "refund", noLabels))
                .isInstanceOfSatisfying(MissingScorerOptionException.class, missing -> {
                    assertThat(missing.scorer()).isEqualTo("classification");
                    assertThat(missing.option()).isEqualTo("labels");
                })
                .hasMessageContaining("scorer 'classification' needs option 'labels'")
                .hasMessageContaining("arena.scorers.options.classification.labels")
                .hasMessageContaining("@ScorerOption(scorer = \"classification\", name = \"labels\"")
                .hasMessageContaining("scorer_options");
        assertThatThrownBy(() -> scorer.score("x", "refund", noLabels.with("labels", List.of(" "))))
                .as("only blank labels").isInstanceOf(MissingScorerOptionException.class);
    }

    @Test
    void aReferenceOutsideTheLabelsIsAnError() {
        assertThatThrownBy(() -> scorer.score("billing", "biling", context))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'biling'")
                .hasMessageContaining("not one of the labels");
    }

    @Test
    void wrongTypedLabelsOptionIsAnError() {
        assertThatThrownBy(() -> scorer.score("billing", "billing", context.with("labels", java.util.Map.of("a", 1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("labels")
                .hasMessageContaining("classification");
    }

    @Test
    void emptyAndHugeOutputsAndNullReference() {
        assertThat(scorer.score("", "billing", context).passed()).isFalse();
        assertThat(scorer.score("x", null, context)).isNull();
        String huge = "lorem ipsum ".repeat(450_000) + "technical";

        ScoreResult result = scorer.score(huge, "technical", context);

        assertThat(result.passed()).isTrue();
        assertThat(result.reason().length()).isLessThan(100);
    }

    @Test
    void theEdgesAreStrippedAsTheFormerRegularExpressionStrippedThem() {
        java.util.regex.Pattern former = java.util.regex.Pattern.compile("^[\\p{P}\\p{S}\\s]+|[\\p{P}\\p{S}\\s]+$");
        java.util.Random random = new java.util.Random(28);
        String alphabet = " \t\n*.!?-_$€+«»()x\u00a0\u2003é";
        for (int round = 0; round < 20_000; round++) {
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            if (random.nextBoolean()) {
                text.append("\uD83D\uDE00");
            }
            assertThat(ClassificationScorer.withoutEdges(text.toString())).as("%s", text)
                    .isEqualTo(former.matcher(text).replaceAll(""));
        }
    }
}
