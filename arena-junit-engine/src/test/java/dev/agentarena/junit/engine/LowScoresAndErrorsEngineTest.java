package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.EngineRun.cannotRun;
import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.anyEvalClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.AssertionFailedError;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;
import dev.agentarena.junit.engine.fixtures.StatusFixture;

/**
 * Gates decide the build: under {@code arena.low-scores=report} a low score stays visible (name, results line, report
 * entries) but its test passes, while errors and failed gates still fail. And the summaries do not hide errors: they
 * are counted beside accuracy, told apart (failed model call, scorer error), and fail an accuracy gate.
 *
 * <p>The status fixture has one case per status on {@code sim_small}: {@code wrong} scores low on exact_match, the
 * task of {@code model_down} throws (both scorers error), the {@code length} scorer throws on {@code scorer_bug}.
 */
class LowScoresAndErrorsEngineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path output;

    @BeforeEach
    void reset() {
        StatusFixture.CALLS.clear();
    }

    @Test
    void underReportALowScorePassesItsTestButStaysVisibleWhileErrorsStillFail() {
        EngineRun run = new EngineRun(output).with(Constants.LOW_SCORES, "report")
                .with(Constants.DISPLAY_NAMES, "short").execute(StatusFixture.class);

        Event wrong = finished(run, anyEvalClass().evalCase("wrong").scorer("exact_match"));
        assertThat(wrong.getRequiredPayload(TestExecutionResult.class).getStatus())
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        // the IDE shows its own ✔ beside a passing test: the name says the score is low without a ✘
        assertThat(wrong.getTestDescriptor().getDisplayName()).contains("exact_match 0.00 (low) expected 'billing'")
                .doesNotContain("✘");
        JsonNode line = run.line("wrong", "exact_match");
        assertThat(line.get("status").asText()).isEqualTo("failed");
        assertThat(line.get("passed").asBoolean()).isFalse();
        assertThat(run.reportEntry("wrong", "exact_match")).containsEntry("passed", "false")
                .containsEntry("status", "failed");

        // errors are not low scores: they still fail their tests, with their own exception
        run.assertNode("model_down", "exact_match", "error", "connection refused by model server");
        run.assertNode("scorer_bug", "length", "error", "scorer exploded");
    }

    @Test
    void byDefaultALowScoreFailsItsTest() {
        EngineRun run = new EngineRun(output).execute(StatusFixture.class);

        run.assertNode("wrong", "exact_match", "failed", "expected 'billing' but got 'technical'");
        assertThat(finished(run, anyEvalClass().evalCase("wrong").scorer("exact_match"))
                .getRequiredPayload(TestExecutionResult.class)
                .getThrowable().orElseThrow()).isInstanceOf(AssertionFailedError.class)
                .hasMessageStartingWith("exact_match scored 0.00 for case 'wrong' on sim_small");
    }

    @Test
    void aLowScoreFailingItsTestOnlyByDefaultSaysOnceWhereToSetReportForMavenAndTheIdeAlike() {
        EngineRun byDefault = new EngineRun(output).execute(StatusFixture.class);
        EngineRun setToFail = new EngineRun(output.resolve("fail")).with(Constants.LOW_SCORES, "fail")
                .execute(StatusFixture.class);

        assertThat(hints(byDefault)).singleElement().asString()
                .startsWith("a low score fails its test: arena.low-scores is set nowhere this run reads")
                .contains("src/test/resources/junit-platform.properties (arena.low-scores=report)", "arena.yaml");
        assertThat(hints(setToFail)).as("set on purpose: nothing to explain").isEmpty();
    }

    private static List<String> hints(EngineRun run) {
        return run.results().allEvents().reportingEntryPublished().stream()
                .map(event -> event.getRequiredPayload(ReportEntry.class).getKeyValuePairs().get("hint"))
                .filter(Objects::nonNull).collect(Collectors.toList());
    }

    @Test
    void anUnknownValueFailsTheRunNamingKeyAndValue() {
        EngineRun run = new EngineRun(output).with(Constants.LOW_SCORES, "ignore").execute(StatusFixture.class);

        run.results().testEvents().assertThatEvents().haveAtLeastOne(event(cannotRun("StatusFixture"),
                finishedWithFailure(message(m -> m.contains("arena.low-scores must be fail or report, but was "
                        + "\"ignore\"")))));
    }

    @Test
    void underReportAnAccuracyGateStillFailsAndErroredResultsFailItEvenWhenAccuracyHolds() throws IOException {
        // Accuracy of sim_small leaves the three errored results out: right 1, wrong (0 + 1) / 2, scorer_bug 1 (its
        // exact_match), so 0.833 holds, but errors are not allowed.
        EngineRun run = new EngineRun(output).with(Constants.LOW_SCORES, "report")
                .with("arena.gates.min-accuracy", "0.5").execute(StatusFixture.class);

        Event gate = finished(run, anyEvalClass().gate("min-accuracy"));
        TestExecutionResult result = gate.getRequiredPayload(TestExecutionResult.class);
        assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(result.getThrowable().orElseThrow()).isInstanceOf(AssertionFailedError.class).hasMessage(
                "gate failed: status-fixture / sim_small accuracy 0.833 >= 0.500 (min-accuracy), but 3 results errored"
                        + " and none are allowed (arena.gates.max-errors); errored results are not in accuracy");

        EngineRun allowed = new EngineRun(output.resolve("allowed")).with(Constants.LOW_SCORES, "report")
                .with("arena.gates.min-accuracy", "0.5").with("arena.gates.max-errors", "3")
                .execute(StatusFixture.class);
        assertThat(finished(allowed, anyEvalClass().gate("min-accuracy")).getRequiredPayload(TestExecutionResult.class)
                .getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(finished(allowed, anyEvalClass().gate("max-errors")).getRequiredPayload(TestExecutionResult.class)
                .getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
    }

    @Test
    void theSummariesShowErroredResultsBesideAccuracyAndTellFailedCallsFromScorerErrors() throws IOException {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream original = System.out;
        EngineRun run;
        try {
            System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
            run = new EngineRun(output).with(Constants.LEADERBOARD_TESTS, "true").execute(StatusFixture.class);
        }
        finally {
            System.setOut(original);
        }

        Map<String, String> entries = run.results().allEvents().reportingEntryPublished().stream()
                .filter(e -> anyEvalClass().leaderboard().matches(e.getTestDescriptor().getUniqueId()))
                .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs()).findFirst().orElseThrow();
        assertThat(entries).containsEntry("errors", "3").containsEntry("call_errors", "1")
                .containsEntry("scorer_errors", "1")
                .containsEntry("scorer.length", "accuracy 1.0000, errors 2 (1 from failed calls, 1 from the scorer), "
                        + "n=2");

        String warning = "sim_small: 3 errored results, kept out of accuracy: 1 model call failed before scoring (the"
                + " model, the task, a hook or an unreadable row): 2 results; 1 scorer error (length 1)";
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("! " + warning);
        JsonNode model = JSON.readTree(output.resolve("leaderboard.json").toFile()).path("evals").get(0);
        assertThat(model.path("warnings").toString()).contains(warning);
        assertThat(model.path("models").get(0).path("errors").asInt()).isEqualTo(3);
        assertThat(model.path("models").get(0).path("callErrors").asInt()).isEqualTo(1);
        assertThat(model.path("models").get(0).path("scorerErrors").asInt()).isEqualTo(1);
    }

    private static Event finished(EngineRun run, ArenaUniqueIdBuilder suffix) {
        List<Event> events = run.results().testEvents().finished().stream()
                .filter(e -> suffix.matches(e.getTestDescriptor().getUniqueId()))
                .collect(Collectors.toList());
        assertThat(events).as("finished tests ending with %s", suffix).hasSize(1);
        return events.get(0);
    }
}
