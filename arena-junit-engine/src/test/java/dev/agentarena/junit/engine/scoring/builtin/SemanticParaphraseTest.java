package dev.agentarena.junit.engine.scoring.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleBiFunction;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.engine.scoring.TestScoringContext;

/**
 * Why all-MiniLM-L6-v2 is the recommended {@code semantic} setup: on a small set of answers, each a reference, a
 * paraphrase that shares few words with it, and an unrelated answer that shares many, the embeddings rank every
 * paraphrase above every unrelated answer, and the lexical token-set cosine does not.
 */
class SemanticParaphraseTest {

    /** Reference, paraphrase, unrelated answer. */
    static final List<String[]> SET = List.of(
            new String[] {"You can get your money back within 30 days of purchase.",
                "Refunds are available for a month after you buy.",
                "You can get a new password by clicking the link in the email."},
            new String[] {"The capital of France is Paris.", "Paris is France's capital city.",
                "The capital of Japan is Tokyo."},
            new String[] {"The store opens at nine in the morning.", "Our shop starts business at 9 a.m.",
                "The store is closed on public holidays."},
            new String[] {"I cannot log in to my account.", "Signing in to my profile fails every time.",
                "I cannot find the invoice for my order."},
            new String[] {"The flight was delayed because of bad weather.", "Storms held up the plane's departure.",
                "The flight attendant served coffee and snacks."},
            new String[] {"Restart the router to fix the connection.",
                "Turning the modem off and on again should restore your internet.",
                "Restart your subscription to get the newsletter."},
            new String[] {"He is very happy with the new car.", "He is delighted with his recently bought automobile.",
                "He is very tired after the new job."},
            new String[] {"The medicine should be taken twice a day with food.",
                "Take the pills two times daily during meals.", "The medicine cabinet is in the bathroom."});

    private final SemanticScorer scorer = new SemanticScorer();
    private final TestScoringContext context = TestScoringContext.forScorer("semantic");

    @Test
    void embeddingsSeparateParaphrasesFromUnrelatedAnswersWhereTheLexicalMeasureDoesNot() {
        Separation embeddings = separation("embeddings", (output, reference) -> score(output, reference, context));
        Separation lexical = separation("token set", (output, reference) -> score(output, reference,
                context.with("embedding", "token_set")));

        assertThat(embeddings.minParaphrase).as(embeddings.toString()).isGreaterThan(embeddings.maxUnrelated);
        assertThat(lexical.minParaphrase).as(lexical.toString()).isLessThanOrEqualTo(lexical.maxUnrelated);
    }

    @Test
    void atTheDefaultThresholdEveryParaphrasePassesAndEveryUnrelatedAnswerFails() {
        for (String[] triple : SET) {
            ScoreResult paraphrase = scorer.score(triple[1], triple[0], context);
            ScoreResult unrelated = scorer.score(triple[2], triple[0], context);

            assertThat(paraphrase.passed()).as(triple[1] + ": " + paraphrase.reason()).isTrue();
            assertThat(unrelated.passed()).as(triple[2] + ": " + unrelated.reason()).isFalse();
        }
    }

    private double score(String output, String reference, TestScoringContext scoring) {
        return scorer.score(output, reference, scoring).score();
    }

    private static Separation separation(String measure, ToDoubleBiFunction<String, String> similarity) {
        List<Double> paraphrases = new ArrayList<>();
        List<Double> unrelated = new ArrayList<>();
        for (String[] triple : SET) {
            paraphrases.add(similarity.applyAsDouble(triple[1], triple[0]));
            unrelated.add(similarity.applyAsDouble(triple[2], triple[0]));
        }
        Separation separation = new Separation(measure, paraphrases, unrelated);
        // the figures the documentation quotes (docs/architecture/scoring.md)
        System.out.println(separation);
        return separation;
    }

    /** The similarities of one measure. */
    static final class Separation {
        final String measure;
        final List<Double> paraphrases;
        final List<Double> unrelated;
        final double minParaphrase;
        final double maxUnrelated;

        Separation(String measure, List<Double> paraphrases, List<Double> unrelated) {
            this.measure = measure;
            this.paraphrases = paraphrases;
            this.unrelated = unrelated;
            this.minParaphrase = paraphrases.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            this.maxUnrelated = unrelated.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s: paraphrases %s (min %.3f), unrelated %s (max %.3f)", measure,
                    format(paraphrases), minParaphrase, format(unrelated), maxUnrelated);
        }

        private static String format(List<Double> values) {
            List<String> texts = new ArrayList<>();
            values.forEach(value -> texts.add(String.format(Locale.ROOT, "%.2f", value)));
            return texts.toString();
        }
    }
}
