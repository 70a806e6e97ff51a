package dev.agentarena.junit.engine.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.engine.results.ScoreLine;

class ScoreLineTest {

    @Test
    void displayNamesHaveNoControlCharactersSoJUnit5And6ShowTheSameText() {
        String name = ScoreLine.displayName("sim_small/tickets[a]/exact_match", 0.0, ResultStatus.FAILED,
                "expected 'x'\n\tbut got\u0000'y'\u2028done");

        assertThat(name).isEqualTo("sim_small/tickets[a]/exact_match 0.00 ✘ expected 'x' but got 'y' done");
        assertThat(name).doesNotContainPattern("[\\p{Cntrl}\\u2028\\u2029]");
    }

    @Test
    void longReasonsAreCutWithAnEllipsis() {
        String name = ScoreLine.displayName("s", 1.0, ResultStatus.PASSED, "r".repeat(500));

        assertThat(name).startsWith("s 1.00 ✔ rrr").endsWith("…").hasSize("s 1.00 ✔ ".length() + 80);
        assertThat(ScoreLine.sanitize("abc", 2)).isEqualTo("a…");
    }

    @Test
    void sanitizingMakesOneLineOfCharactersEveryReportAccepts() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        char[] alphabet = {'a', ' ', '\t', '\n', '\r', '\u0000', '\u001f', '\u007f', '\u0080', '\u2028', '\u2029',
            '\u00a0', '\u3000', 'é', '\ud83d', '\ude00'};
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                text.append(alphabet[random.nextInt(alphabet.length)]);
            }
            // C0, DEL, C1 and the line separators as one space; unpaired surrogates (a regex sees a pair as one
            // code point) as U+FFFD
            String expected = text.toString().replaceAll("[\\p{Cntrl}\\u0080-\\u009f\\u2028\\u2029]+", " ")
                    .replaceAll("[\\ud800-\\udfff]", "\ufffd").strip();
            int max = random.nextInt(1, 14);
            int end = max - 1;
            if (end > 0 && expected.length() > max && Character.isHighSurrogate(expected.charAt(end - 1))) {
                end--;
            }
            expected = expected.length() <= max ? expected : expected.substring(0, end) + "…";
            assertThat(ScoreLine.sanitize(text.toString(), max)).as("%s", text.chars().boxed().toList())
                    .isEqualTo(expected);
        }
    }

    @Test
    void marksTellEveryStatusApart() {
        assertThat(ScoreLine.displayName("s", null, ResultStatus.ERROR, "boom")).isEqualTo("s – ! boom");
        assertThat(ScoreLine.displayName("s", null, ResultStatus.NOT_APPLICABLE, "")).isEqualTo("s – –");
    }

    @Test
    void theStdoutLineCarriesScoreStatusReasonMetricsAndUsage() {
        ResultRecord record = new ResultRecord("capitals", "sim_small", "questions", "france", "concise", "v1",
                "capitals-concise", 0, 1.0, true, ResultStatus.PASSED, "3 words\nok", Map.of("words", 3.0), 40L,
                8, 1, 0.0000018, false, 1.0, List.of(), null, "Paris");

        assertThat(ScoreLine.of(record)).isEqualTo("[arena] capitals sim_small questions[france]/concise score=1.00"
                + " status=passed passed=true reason=\"3 words ok\" output=\"Paris\" metrics={words=3.000} latency_ms=40"
                + " tokens=8/1"
                + " cost_usd=0.000002");
    }

    @Test
    void aLowScoresMessageAndItsScoreLineQuoteTheStartOfTheOutputNextToTheReason() {
        ResultRecord record = new ResultRecord("capitals", "sim_small", "questions", "france", "contains", "v1",
                "capitals-contains", 0, 0.0, false, ResultStatus.FAILED, "missing 'Paris'", Map.of(), 40L, 8, 1, 0.0,
                false, 1.0, List.of(), null, "Prais\nis the \"capital\"\u001B[0m" + " and so on".repeat(20));

        // 80 characters as shown, escapes counted
        String quoted = "\"Prais\\nis the \\\"capital\\\"\\u001B[0m and so on and so on and so on and so on and"
                + " …\"";
        assertThat(ScoreLine.lowScoreMessage(record)).isEqualTo(
                "contains scored 0.00 for case 'france' on sim_small: missing 'Paris'; output " + quoted);
        assertThat(ScoreLine.of(record)).contains(" reason=\"missing 'Paris'\" output=" + quoted + " latency_ms=40");
        ResultRecord noOutput = new ResultRecord("capitals", "sim_small", "questions", "france", "contains", "v1",
                "capitals-contains", 0, 0.0, false, ResultStatus.FAILED, "", Map.of(), 40L, 8, 1, 0.0, false, 1.0,
                List.of(), null, null);
        assertThat(ScoreLine.lowScoreMessage(noOutput)).isEqualTo("contains scored 0.00 for case 'france' on sim_small");
        assertThat(ScoreLine.of(noOutput)).doesNotContain("output=");
    }

    @Test
    void aResultOfNoCaseNamesOnlyItsScorer() {
        ResultRecord record = new ResultRecord("refunds", "sim_small", "", "", "cannot_run", "",
                "refunds-cannot_run", 0, null, null, ResultStatus.ERROR, "no dataset file", Map.of(), null, 0, 0,
                0.0, false, 1.0, List.of(), "IllegalArgumentException: no dataset file", null);

        assertThat(ScoreLine.of(record)).startsWith("[arena] refunds sim_small cannot_run score=– status=error")
                .doesNotContain("[]");
    }
}
