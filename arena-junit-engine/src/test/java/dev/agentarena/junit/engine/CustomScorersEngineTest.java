package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.EngineRun.cannotRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.clash.ClashFixture;
import dev.agentarena.junit.engine.fixtures.clash.scorers.ImpostorScorer;
import dev.agentarena.junit.engine.fixtures.custom.CustomScorerFixture;
import dev.agentarena.junit.engine.fixtures.custom.ShoutScorer;
import dev.agentarena.junit.engine.scoring.ScorerVersions;
import dev.agentarena.junit.engine.scoring.builtin.ExactMatchScorer;

/** Scorer classes next to an eval are used by name, with no registration, and cannot take a builtin's name. */
class CustomScorersEngineTest {

    @TempDir
    Path output;

    @Test
    void scorerClassesInTheEvalPackageAndItsScorersSubPackageAreUsedByName() {
        EngineRun run = new EngineRun(output).with("arena.scorers.options.shout.min_ratio", "0.9")
                .with("arena.scorers.options.polite.markers", "please,kindly")
                .execute(CustomScorerFixture.class);

        JsonNode loud = run.assertNode("loud", "shout", "passed", "1.00 upper case, min_ratio 0.90");
        run.assertNode("quiet", "shout", "failed", "0.00 upper case, min_ratio 0.90");
        run.assertNode("courteous", "polite", "passed", "found 'kindly'");
        assertThat(loud.get("metrics").get("upper_ratio").asDouble()).isEqualTo(1.0);
        assertThat(loud.get("scorer_version").asText()).isEqualTo(ScorerVersions.of(ShoutScorer.class));
        assertThat(loud.get("registry_name").asText()).isEqualTo("custom-scorers-shout");
        assertThat(run.reportEntry("loud", "shout")).containsEntry("metric.upper_ratio", "1.000000");
    }

    @Test
    void optionsDefaultWhenNotConfigured() {
        EngineRun run = new EngineRun(output).execute(CustomScorerFixture.class);

        run.assertNode("courteous", "polite", "failed", "none of [please]");
        run.assertNode("loud", "shout", "passed", "min_ratio 0.50");
    }

    @Test
    void aDiscoveredScorerClaimingABuiltinNameFailsTheClassNamingBoth() {
        EngineRun run = new EngineRun(output).execute(ClashFixture.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(cannotRun("ClashFixture"),
                finishedWithFailure(message(m -> m.contains("'exact_match'")
                        && m.contains(ExactMatchScorer.class.getName()) && m.contains(ImpostorScorer.class.getName())
                        && m.contains(ClashFixture.class.getName())))));
        assertThat(run.results().testEvents().started().count()).as("the cannot run test only").isEqualTo(1);
    }
}
