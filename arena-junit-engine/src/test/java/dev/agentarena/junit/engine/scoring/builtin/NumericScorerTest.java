package dev.agentarena.junit.engine.scoring.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.engine.scoring.TestScoringContext;

class NumericScorerTest {

    private final NumericScorer scorer = new NumericScorer();
    private final TestScoringContext context = TestScoringContext.forScorer("numeric");

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "The total is 1,200.50 dollars | 1200.5",
            "x = -3.25 | -3.25",
            "x = \u22123.25 (unicode minus) | -3.25",
            "about 1.2e3 units | 1200",
            "about 1.2E-3 units | 0.0012",
            "costs .5 | 0.5",
            "ＦＵＬＬ ４２ | 42",
            "pages 3-5 | 5",
            "12,345,678 people | 12345678",
    })
    void extractsNumbersInCommonNotations(String output, String expected) {
        ScoreResult result = scorer.score(output, expected, context);

        assertThat(result.passed()).as(result.reason()).isTrue();
        assertThat((BigDecimal) result.detail().get("extracted")).isEqualByComparingTo(expected);
    }

    @Test
    void ignoresDigitsGluedToWords() {
        ScoreResult result = scorer.score("customer cust_42 with plan v2 has 7 seats", 7, context);

        assertThat(result.passed()).isTrue();
        assertThat(NumberExtractor.all("cust_42 v2 1.2.3 7")).containsExactly(new BigDecimal("7"));
    }

    @Test
    void picksTheLastNumberByDefaultAndTheFirstOnRequest() {
        String output = "Step 1: 6 * 7. So the answer is 42";

        assertThat(scorer.score(output, 42, context).passed()).isTrue();
        assertThat(scorer.score(output, 1, context.with("pick", "first")).passed()).isTrue();
        assertThatThrownBy(() -> scorer.score(output, 1, context.with("pick", "middle")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pick").hasMessageContaining("middle");
    }

    @Test
    void absoluteAndRelativeToleranceUseDecimalArithmetic() {
        assertThat(scorer.score("1.01", 1, context.with("tolerance", 0.01)).passed()).as("exactly at the edge").isTrue();
        assertThat(scorer.score("1.0101", 1, context.with("tolerance", 0.01)).passed()).isFalse();
        assertThat(scorer.score("105", 100, context.with("relative_tolerance", 0.05)).passed()).isTrue();
        assertThat(scorer.score("106", 100, context.with("relative_tolerance", 0.05)).passed()).isFalse();
        // The larger allowance wins.
        assertThat(scorer.score("106", 100, context.with("relative_tolerance", 0.05).with("tolerance", 10)).passed())
                .isTrue();
        assertThat(scorer.score("42.0", 42, context).passed()).as("exact by default, by value").isTrue();
        assertThat(scorer.score("42.001", 42, context).passed()).isFalse();
    }

    @Test
    void referenceMayBeANumberOrNumericText() {
        assertThat(scorer.score("0.1", 0.1, context).passed()).as("double 0.1 is decimal 0.1").isTrue();
        assertThat(scorer.score("$1,200.00", "USD 1,200", context).passed()).isTrue();
        assertThat(scorer.score("7", 7L, context).passed()).isTrue();
        assertThatThrownBy(() -> scorer.score("7", "seven", context))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'seven' is not a number");
        assertThat(scorer.score("7", null, context)).isNull();
    }

    @Test
    void reasonsSayWhatWasFound() {
        ScoreResult off = scorer.score("It is 41", 42, context.with("tolerance", 0.5));
        ScoreResult none = scorer.score("", 42, context);

        assertThat(off.reason()).isEqualTo("found 41, expected 42 (off by 1, allowed 0.5)");
        assertThat(none.passed()).isFalse();
        assertThat(none.reason()).isEqualTo("no number in output '', expected 42");
    }

    @Test
    void wrongTypedOrNegativeToleranceIsAnError() {
        assertThatThrownBy(() -> scorer.score("1", 1, context.with("tolerance", "lots")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("option 'tolerance' of scorer 'numeric' must be a number, but was \"lots\"");
        assertThatThrownBy(() -> scorer.score("1", 1, context.with("relative_tolerance", -0.1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(">= 0");
    }

    @Test
    void hugeOutputWithTheAnswerAtTheEnd() {
        String huge = "no numbers here. ".repeat(300_000) + "Answer: 3.14";

        ScoreResult result = scorer.score(huge, 3.14, context);

        assertThat(result.passed()).isTrue();
        ScoreResult hugeMiss = scorer.score("word ".repeat(1_000_000), 1, context);
        assertThat(hugeMiss.reason().length()).isLessThan(150);
    }
}
