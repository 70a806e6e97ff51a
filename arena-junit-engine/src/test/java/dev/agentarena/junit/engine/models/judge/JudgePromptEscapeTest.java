package dev.agentarena.junit.engine.models.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The judge prompt's escaping is a single scan that spells block tags as the regular expression it replaced did. */
class JudgePromptEscapeTest {

    /** The former rule: quadratic on {@code <} followed by a long run of spaces. */
    private static final Pattern FORMER = Pattern.compile("<\\s*(/?)\\s*(question|reference|answer)\\s*>",
            Pattern.CASE_INSENSITIVE);

    @Test
    void escapesWhatTheFormerRegularExpressionEscaped() {
        Random random = new Random(28);
        String[] pieces = {"<", ">", "/", " ", "\n", "\t", "answer", "ANSWER", "question", "refer", "reference", "x",
            "<answer>", "</ answer >"};
        for (int round = 0; round < 20_000; round++) {
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(10); n > 0; n--) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            String expected = FORMER.matcher(text).replaceAll(match -> Matcher.quoteReplacement(
                    "&lt;" + match.group(1) + match.group(2) + "&gt;"));
            assertThat(JudgePrompt.escape(text.toString())).as("%s", text).isEqualTo(expected);
        }
    }

    @Test
    void aLongRunOfSpacesAfterAnAngleBracketIsOneScan() {
        String text = "<" + " ".repeat(1 << 20) + "answer>";

        assertThat(JudgePrompt.escape(text)).isEqualTo("&lt;answer&gt;");
    }
}
