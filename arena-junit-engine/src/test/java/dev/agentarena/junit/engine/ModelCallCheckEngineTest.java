package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;

import dev.agentarena.junit.engine.fixtures.ModelCallFixtures;

/**
 * {@code arena.task.require-model-call}: a task that finishes cases without one call reaching the model under
 * evaluation is named once per eval (or each such case is an error), and tasks that legitimately make no call through
 * the handle are not.
 */
class ModelCallCheckEngineTest {

    @TempDir
    Path output;

    @Test
    void aTaskThatNeverCallsTheModelIsNamedOncePerEvalWithEachModelAndCount() {
        EngineRun run = new EngineRun(output).execute(ModelCallFixtures.NeverCalls.class);

        List<String> warnings = warnings(run);
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).startsWith("eval 'never-calls': @Task answer() finished ")
                .contains("2 of 2 cases on sim_large", "2 of 2 cases on sim_small",
                        "without one call reaching the model under evaluation", "@RouteChatModelsToArena",
                        "arena.task.require-model-call=error");
        // a warning, not a verdict: the cases keep their scores
        assertThat(run.lines()).hasSize(4)
                .allSatisfy(line -> assertThat(line.get("status").asText()).isEqualTo("passed"));
    }

    @Test
    void onlyTheCasesWithoutACallAreCounted() {
        EngineRun run = new EngineRun(output).execute(ModelCallFixtures.CallsForSome.class);

        assertThat(warnings(run)).singleElement(InstanceOfAssertFactories.STRING)
                .contains("1 of 2 cases on sim_small");
    }

    @Test
    void underErrorEachCaseWithoutACallIsAnErrorNamingTaskCaseAndModel() {
        EngineRun run = new EngineRun(output).with(Constants.TASK_REQUIRE_MODEL_CALL, "error")
                .execute(ModelCallFixtures.CallsForSome.class);

        run.assertNode("a", "exact_match", "error", "@Task answer() finished case 'a' without calling the model "
                + "under evaluation, 'sim_small' (arena.task.require-model-call=error)");
        assertThat(run.line("b", "exact_match").get("status").asText()).isNotEqualTo("error");
        assertThat(warnings(run)).isEmpty();
    }

    @Test
    void offSaysNothing() {
        EngineRun run = new EngineRun(output).with(Constants.TASK_REQUIRE_MODEL_CALL, "off")
                .execute(ModelCallFixtures.NeverCalls.class);

        assertThat(warnings(run)).isEmpty();
        assertThat(run.lines()).hasSize(4)
                .allSatisfy(line -> assertThat(line.get("status").asText()).isEqualTo("passed"));
    }

    @Test
    void tasksThatCallTheModelTheEngineCallingItRecordedOutputsOwnUsageAndTheDefaultModelAreNotMistakenForIt() {
        for (Class<?> fixture : List.of(ModelCallFixtures.AlwaysCalls.class, ModelCallFixtures.EngineCalls.class,
                ModelCallFixtures.RecordedOutputs.class, ModelCallFixtures.ReportsItsOwnUsage.class,
                ModelCallFixtures.DefaultModelOnly.class)) {
            EngineRun run = new EngineRun(output.resolve(fixture.getSimpleName()))
                    .with(Constants.TASK_REQUIRE_MODEL_CALL, "error").execute(fixture);

            assertThat(run.lines()).as(fixture.getSimpleName()).isNotEmpty()
                    .allSatisfy(line -> assertThat(line.get("status").asText()).as(fixture.getSimpleName())
                            .isNotEqualTo("error"));
        }
    }

    @Test
    void anUnknownValueNamesKeyAndAcceptedWords() {
        EngineRun run = new EngineRun(output).with(Constants.TASK_REQUIRE_MODEL_CALL, "sometimes")
                .execute(ModelCallFixtures.NeverCalls.class);

        assertThat(run.results().allEvents().failed().stream()
                .map(event -> event.getPayload(TestExecutionResult.class).orElseThrow()
                        .getThrowable().map(Throwable::getMessage).orElse(""))
                .collect(Collectors.toList()))
                .anySatisfy(message -> assertThat(message).contains("arena.task.require-model-call must be warn, "
                        + "error or off, but was \"sometimes\""));
    }

    private static List<String> warnings(EngineRun run) {
        return run.results().allEvents().reportingEntryPublished().stream()
                .map(event -> event.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs().get("warning"))
                .filter(warning -> warning != null && warning.contains("without one call"))
                .collect(Collectors.toList());
    }
}
