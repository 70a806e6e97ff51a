package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.anyEvalClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.container;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.scoring.ErrorRulesFixture;
import dev.agentarena.junit.model.ModelCallException;

/** The error rules: errors are reported as errors, never as low scores, and one broken scorer hides nothing. */
class ScoringErrorsEngineTest {

    private static final List<String> SCORERS = List.of("boom", "first", "nan_score", "second", "steady");

    @TempDir
    Path output;

    @Test
    void aNonFiniteScoreIsAnError() {
        EngineRun run = new EngineRun(output).execute(ErrorRulesFixture.class);

        JsonNode line = run.assertNode("ok", "nan_score", "error", "returned a non-finite score: NaN");
        assertThat(line.get("score").isNull()).isTrue();
    }

    @Test
    void aScoreNameEmittedByTwoScorersMakesBothErrorsNamingBothWhileTheClassStillRuns() {
        EngineRun run = new EngineRun(output).execute(ErrorRulesFixture.class);

        String clash = "Score name 'shared' is emitted by both scorer 'first' and scorer 'second'";
        run.assertNode("ok", "shared", "error", clash);
        run.assertNode("ok", "shared#2", "error", clash);
        // the clash is reported on every case's nodes; the class container does not fail as well
        run.results().containerEvents().assertThatEvents()
                .haveExactly(1, event(container(), displayName("ErrorRulesFixture"), finishedSuccessfully()));
    }

    @Test
    void aThrowingScorerRecordsItsMessageAndTheOtherScorersStillRun() {
        EngineRun run = new EngineRun(output).execute(ErrorRulesFixture.class);

        JsonNode boom = run.assertNode("ok", "boom", "error", "lookup table missing");
        assertThat(boom.get("error").asText()).isEqualTo("IllegalStateException: lookup table missing");
        run.assertNode("ok", "steady", "passed", "");
    }

    @Test
    void aFailingTaskSkipsItsScorersWhichAreReportedAsErrors() {
        EngineRun run = new EngineRun(output).execute(ErrorRulesFixture.class);

        for (String scorer : SCORERS) {
            JsonNode line = run.assertNode("task_down", scorer, "error", "upstream timed out after 30s");
            assertThat(line.get("score").isNull()).isTrue();
            assertThat(line.get("output").isNull()).isTrue();
            assertThat(thrown(run, "task_down", scorer)).isInstanceOf(ModelCallException.class);
        }
    }

    @Test
    void aTaskThrowingAnAssertionErrorIsStillAnErrorNotALowScore() {
        EngineRun run = new EngineRun(output).execute(ErrorRulesFixture.class);

        for (String scorer : SCORERS) {
            run.assertNode("task_assert", scorer, "error", "task precondition broken");
            assertThat(thrown(run, "task_assert", scorer)).isInstanceOf(IllegalStateException.class)
                    .hasCauseInstanceOf(AssertionError.class);
        }
    }

    private static Throwable thrown(EngineRun run, String caseId, String scorer) {
        return run.results().testEvents().failed().stream()
                .filter(anyEvalClass().evalCase(caseId).scorer(scorer).node()::matches)
                .map(e -> e.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow())
                .findFirst().orElseThrow();
    }
}
