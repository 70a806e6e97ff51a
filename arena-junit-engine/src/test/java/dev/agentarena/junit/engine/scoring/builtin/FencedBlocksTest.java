package dev.agentarena.junit.engine.scoring.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

class FencedBlocksTest {

    @Test
    void prefersTheTaggedLanguageThenUntaggedThenAny() {
        String text = "```bash\nls\n```\n```\nplain\n```\nthen ```python\nprint(1)\n```";

        assertThat(FencedBlocks.preferred(text, Set.of("python"))).contains("print(1)");
        assertThat(FencedBlocks.preferred(text, Set.of("java"))).contains("plain");
        assertThat(FencedBlocks.preferred("```bash\nls\n```", Set.of("java"))).contains("ls");
        assertThat(FencedBlocks.preferred("no fences", Set.of("java"))).isEmpty();
    }

    @Test
    void anUnclosedFenceRunsToTheEndAndLongerFencesNest() {
        assertThat(FencedBlocks.preferred("```json\n{\"a\": 1", Set.of("json"))).contains("{\"a\": 1");
        assertThat(FencedBlocks.preferred("````md\n```\ninner\n```\n````", Set.of("md")))
                .contains("```\ninner\n```");
    }

    /** The regular expression the scan replaced: the rule it keeps, and quadratic over runs of backticks. */
    private static final Pattern FORMER = Pattern.compile("(`{3,}|~{3,})([^\\n`]*)\\n(.*?)(?:\\n[ \\t]*\\1|\\z)",
            Pattern.DOTALL);

    @Test
    void findsTheBlocksTheFormerRegularExpressionFound() {
        Random random = new Random(28);
        String alphabet = "``~~\n\n \tajs`~";
        for (int round = 0; round < 20_000; round++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(40);
            for (int i = 0; i < length; i++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            List<FencedBlocks.Block> expected = new ArrayList<>();
            Matcher matcher = FORMER.matcher(text);
            while (matcher.find()) {
                String info = matcher.group(2).strip();
                expected.add(new FencedBlocks.Block(info.isEmpty() ? "" : info.split("\\s+")[0].toLowerCase(Locale.ROOT),
                        matcher.group(3)));
            }
            assertThat(FencedBlocks.all(text.toString())).as("%s", text).isEqualTo(expected);
        }
    }
}
