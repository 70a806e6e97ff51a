package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.scoring.VersionsFixture;
import dev.agentarena.junit.engine.scoring.ScorerVersions;
import dev.agentarena.junit.engine.scoring.builtin.ExactMatchScorer;

/** Every result cites the version of the scorer that produced it and the name it is registered under. */
class ScorerVersionsEngineTest {

    @TempDir
    Path output;

    @Test
    void everyLineHasAVersionAndARegistryName() {
        EngineRun run = new EngineRun(output).execute(VersionsFixture.class);

        assertThat(run.lines()).hasSize(3).allSatisfy(line -> {
            assertThat(line.get("scorer_version").asText()).matches("[0-9a-f]{12}");
            assertThat(line.get("registry_name").asText())
                    .isEqualTo("support-agent-" + line.get("scorer").asText().replace('_', '-'));
        });
        assertThat(run.line("one", "exact_match").get("registry_name").asText())
                .isEqualTo("support-agent-exact-match");
    }

    @Test
    void methodScorersWithDifferentBodiesHaveDifferentVersionsAndABuiltinCitesItsClass() throws Exception {
        EngineRun run = new EngineRun(output).execute(VersionsFixture.class);

        String shortVersion = run.line("one", "short_answer").get("scorer_version").asText();
        String longVersion = run.line("one", "long_answer").get("scorer_version").asText();
        assertThat(shortVersion).isNotEqualTo(longVersion)
                .isEqualTo(ScorerVersions.of(VersionsFixture.class.getDeclaredMethod("shortAnswer", String.class)));
        assertThat(run.line("one", "exact_match").get("scorer_version").asText())
                .isEqualTo(ScorerVersions.of(ExactMatchScorer.class));
        assertThat(run.reportEntry("one", "short_answer")).containsEntry("scorer_version", shortVersion);
    }
}
