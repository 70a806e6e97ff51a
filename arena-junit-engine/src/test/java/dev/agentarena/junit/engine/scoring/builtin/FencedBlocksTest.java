package dev.agentarena.junit.engine.scoring.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

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
}
