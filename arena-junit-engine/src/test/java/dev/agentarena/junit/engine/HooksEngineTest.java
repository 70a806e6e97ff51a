package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.scoring.EchoModelProvider;
import dev.agentarena.junit.engine.fixtures.scoring.HooksFixture;

/** {@code @PreProcess} and {@code @PostProcess} hooks of the eval class and of a {@code @ProcessWith} class. */
class HooksEngineTest {

    @TempDir
    Path output;

    @BeforeEach
    void forgetPrompts() {
        EchoModelProvider.PROMPTS.clear();
    }

    @Test
    void thePreProcessHookRewritesThePromptTheModelSees() {
        new EngineRun(output).execute(HooksFixture.class);

        assertThat(EchoModelProvider.PROMPTS).filteredOn(prompt -> prompt.contains("\"Paris\""))
                .singleElement().satisfies(prompt -> assertThat(prompt).startsWith("```json\n{").endsWith("}\n```"));
    }

    @Test
    void aPostProcessHookOfTheHooksClassStripsTheFenceBeforeJsonMatch() {
        EngineRun run = new EngineRun(output).execute(HooksFixture.class);

        JsonNode line = run.assertNode("paris", "json_match", "passed", "1 of 1 keys match");
        assertThat(line.get("output").asText()).startsWith("{").endsWith("}").doesNotContain("```");
    }

    @Test
    void aPostProcessHookReturningAScoreResultOverridesTheVerdictWithItsReason() {
        EngineRun run = new EngineRun(output).execute(HooksFixture.class);

        JsonNode line = run.assertNode("vetoed", "json_match", "failed",
                "overridden by @PostProcess veto(): mentions a competitor");
        assertThat(line.get("score").asDouble()).isEqualTo(0.0);
        assertThat(line.get("scorer_version").asText()).isNotBlank();
    }
}
