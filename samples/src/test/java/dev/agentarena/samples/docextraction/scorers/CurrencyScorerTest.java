package dev.agentarena.samples.docextraction.scorers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.Verdict;

/** The scorer is a plain class: test it directly, with a small context, before any model runs. */
class CurrencyScorerTest {

    private final CurrencyScorer scorer = new CurrencyScorer();

    @Test
    void dollarsWithSymbolPlainNumberAndIsoCodeAreTheSameAnswer() {
        assertThat(scorer.score("$1,200.00", "1200", context(Map.of())).passed()).isTrue();
        assertThat(scorer.score("1200", "USD 1200", context(Map.of())).passed()).isTrue();
        assertThat(scorer.score("Total due: USD 1200", "$1,200.00", context(Map.of())).passed()).isTrue();
    }

    @Test
    void theSameAmountInAnotherCurrencyIsWrongAndSaysSo() {
        ScoreResult result = scorer.score("1,200.50 EUR", "USD 1200.50", context(Map.of()));

        assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(result.reason()).isEqualTo("found EUR 1200.50, expected USD 1200.50: right amount, wrong currency");
        assertThat(result.metrics()).containsEntry("currency_match", 0.0).containsEntry("amount_match", 1.0);
    }

    @Test
    void aWrongAmountFailsWithBothAmountsInTheReason() {
        ScoreResult result = scorer.score("The total is $1,020.00.", "$1,200.00", context(Map.of()));

        assertThat(result.score()).isZero();
        assertThat(result.reason()).isEqualTo("found USD 1020.00, expected USD 1200.00: wrong amount");
    }

    @Test
    void optionsSetTheDefaultCurrencyAndTheTolerance() {
        Map<String, Object> options = Map.of("default_currency", "eur", "tolerance", 0.5);

        assertThat(scorer.score("1200.40", "€1,200", context(options)).passed()).isTrue();
        assertThat(scorer.score("1200", "$1,200", context(options)).verdict()).isEqualTo(Verdict.FAILED);
    }

    @Test
    void noReferenceIsNotApplicableAndAReferenceWithoutAmountIsAnError() {
        assertThat(scorer.score("$5", null, context(Map.of()))).isNull();
        assertThatThrownBy(() -> scorer.score("$5", "about five", context(Map.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holds no money amount");
    }

    private static ScoringContext context(Map<String, Object> options) {
        return new ScoringContext() {
            public EvalCase testCase() { return EvalCase.of("c1", "an invoice", null); }
            public String evalName() { return "doc-extraction"; }
            public String modelKey() { return "sim_small"; }
            public ScorerOptionValues options() { return ScorerOptionValues.of("currency", options); }
            public TaskOutput output() { return TaskOutput.of(""); }
            public Path projectRoot() { return Path.of("."); }
            public Judge judge() { throw new UnsupportedOperationException("no judge in unit tests"); }
        };
    }
}
