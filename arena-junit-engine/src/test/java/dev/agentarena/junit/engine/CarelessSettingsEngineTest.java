package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.Event;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.engine.fixtures.TriageFixture;

/**
 * A careless setting is an error that names the setting, once, before any test runs, instead of an error per test
 * that names nothing (an output directory that is a file made every test fail with a {@code NullPointerException}),
 * or a setting silently ignored.
 */
class CarelessSettingsEngineTest {

    @TempDir
    Path temp;

    @Test
    void anOutputDirectoryThatIsAFileIsAnErrorNamingTheSettingAndNoTestRuns() throws IOException {
        Path file = Files.writeString(temp.resolve("out"), "not a directory");

        EngineRun run = new EngineRun(file).execute(TriageFixture.class);

        List<String> errors = failures(run);
        assertThat(errors).isNotEmpty().allSatisfy(message -> assertThat(message)
                .startsWith("The output directory " + file + " cannot be written: it is a file, not a directory")
                .contains("arena.output.dir").contains("\"" + file + "\""));
        assertThat(run.results().testEvents().succeeded().count()).isZero();
        assertThat(run.results().allEvents().stream().map(Event::toString))
                .noneMatch(event -> event.contains("NullPointerException"));
        assertThat(Files.readString(file)).isEqualTo("not a directory");
    }

    @Test
    void anOutputDirectoryBelowAFileNamesTheFile() throws IOException {
        Path file = Files.writeString(temp.resolve("out"), "x");

        EngineRun run = new EngineRun(file.resolve("arena")).execute(TriageFixture.class);

        assertThat(failures(run)).isNotEmpty().allSatisfy(message -> assertThat(message)
                .contains(file + " is a file, not a directory").contains("arena.output.dir"));
    }

    @Test
    void aReadOnlyOutputDirectoryIsAnErrorNamingTheSetting() throws IOException {
        Path readOnly = Files.createDirectory(temp.resolve("read-only"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            // root writes into a directory without write permission: then there is nothing to refuse
            assumeFalse(Files.isWritable(readOnly), "the tests run as a user who may write anywhere");

            EngineRun run = new EngineRun(readOnly.resolve("arena")).execute(TriageFixture.class);

            assertThat(failures(run)).isNotEmpty().allSatisfy(message -> assertThat(message)
                    .contains(readOnly + " is read-only to this run").contains("arena.output.dir"));
        }
        finally {
            Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void aProjectRootThatDoesNotExistIsAnErrorNamingTheSetting() {
        Path missing = temp.resolve("no-such-project");

        EngineRun run = new EngineRun(temp.resolve("out")).with(Constants.PROJECT_ROOT, missing.toString())
                .execute(TriageFixture.class);

        assertThat(failures(run)).isNotEmpty().allSatisfy(message -> assertThat(message)
                .startsWith("arena.project.root=" + missing + " names " + missing + ", which does not exist"));
        assertThat(missing).doesNotExist();
    }

    @Test
    void aTaskReportingNegativeUsageErrsItsOwnCaseNamingTheArgument() {
        EngineRun run = new EngineRun(temp).execute(NegativeUsageEval.class);

        run.assertNode("negative", "answer", "error", "newTokensIn must be a token count of at least 0, was -100");
        run.assertNode("fine", "answer", "passed", "");
        assertThat(run.line("fine", "answer").get("tokens_in").asLong()).isEqualTo(10);
    }

    private static List<String> failures(EngineRun run) {
        return run.results().allEvents().finished().stream()
                .map(event -> event.getPayload(TestExecutionResult.class).orElseThrow())
                .filter(result -> result.getStatus() == TestExecutionResult.Status.FAILED)
                .map(result -> result.getThrowable().orElseThrow().getMessage()).collect(Collectors.toList());
    }

    /** A task that reports negative usage for one case. */
    @Eval("negative-usage")
    @UseModels("sim_small")
    static class NegativeUsageEval {

        @EvalDataset
        List<EvalCase> cases() {
            return List.of(EvalCase.of("negative", "a", "a"), EvalCase.of("fine", "b", "b"));
        }

        @Task
        TaskOutput answer(EvalCase evalCase) {
            TaskOutput output = TaskOutput.of(evalCase.input().toString());
            return evalCase.id().equals("negative") ? output.withUsage(-100, 5, 0.0) : output.withUsage(10, 5, 0.0);
        }

        @Scorer
        ScoreResult answer(EvalCase evalCase, TaskOutput output) {
            return ScoreResult.of(output.text().equals(evalCase.reference()) ? 1.0 : 0.0);
        }
    }
}
