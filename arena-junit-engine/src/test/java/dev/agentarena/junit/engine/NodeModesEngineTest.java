package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.anyEvalClass;
import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.evalClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.FileSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;
import dev.agentarena.junit.engine.fixtures.NodeModesFixture;
import dev.agentarena.junit.engine.fixtures.RepeatFixture;
import dev.agentarena.junit.engine.fixtures.StatusFixture;
import dev.agentarena.junit.engine.fixtures.TwoDatasetFixture;

/**
 * {@code arena.nodes}: in {@code summary} mode a run registers one test per model, dataset and score, carrying the
 * aggregate, and no case tests; in {@code failures} mode only low scores and errors get tests of their own. Either
 * way every result reaches {@code results.jsonl} and the leaderboard, and the summary test's outcome is the worst of
 * the results it stands for, errors kept apart from low scores.
 */
class NodeModesEngineTest {

    private static final ArenaUniqueIdBuilder RECORDED = evalClass(NodeModesFixture.class).model("recorded");

    @TempDir
    Path output;

    @Test
    void summaryModeRegistersOneTestPerScoreAndNoCaseTests() {
        EngineRun run = new EngineRun(output).with(Constants.NODES, "summary").execute(NodeModesFixture.class);

        List<Event> tests = run.results().testEvents().started().list();
        assertThat(tests).extracting(event -> event.getTestDescriptor().getUniqueId()).containsExactly(
                RECORDED.scores("exact_match").build(), RECORDED.scores("brief").build());
        assertThat(run.results().allEvents().dynamicallyRegistered().list()).noneMatch(event -> ArenaUniqueIdBuilder
                .read(event.getTestDescriptor().getUniqueId()).filter(id -> id.caseId() != null).isPresent());
        assertThat(run.lines()).as("results.jsonl keeps every result").hasSize(20);
        assertThat(run.lines()).filteredOn(line -> line.get("case_id").asText().equals("b1")
                && line.get("scorer").asText().equals("exact_match"))
                .singleElement().satisfies(line -> assertThat(line.get("status").asText()).isEqualTo("failed"));
    }

    @Test
    void aSummaryTestCarriesTheAggregateAndFailsWhenACaseScoredLow() {
        EngineRun run = new EngineRun(output).with(Constants.NODES, "summary").with(Constants.DISPLAY_NAMES, "full")
                .execute(NodeModesFixture.class);

        TestDescriptor exact = summaryTest(run.results(), "exact_match");
        // 7 of 9 scored cases passed, one not applicable: a 0/1 proportion gets Wilson's interval
        assertThat(exact.getDisplayName()).startsWith("recorded/node-modes/exact_match over 10 cases: 0.778 [0.453, 0.937] ✘ ")
                .endsWith("7 passed, 2 scored low, 1 not applicable");
        assertThat(exact.getLegacyReportingName()).isEqualTo("recorded/node-modes/exact_match");
        assertThat(exact.getSource()).get().isInstanceOfSatisfying(FileSource.class,
                source -> assertThat(source.getFile().getName()).isEqualTo("node-modes.jsonl"));
        TestExecutionResult result = outcome(run.results(), "exact_match");
        assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(result.getThrowable().orElseThrow()).isInstanceOf(AssertionError.class).hasMessageStartingWith(
                "2 of 10 results of exact_match on recorded (node-modes) scored low; score 0.778 [0.453, 0.937]. "
                        + "Lowest: b1 0.00: ").hasMessageContaining("b2 0.00: ");
        Map<String, String> entries = entries(run.results(), "exact_match");
        assertThat(entries).containsEntry("cases", "10").containsEntry("scored_cases", "9")
                .containsEntry("passed", "7").containsEntry("failed", "2").containsEntry("errors", "0")
                .containsEntry("not_applicable", "1").containsEntry("interval", "wilson")
                .containsEntry("score", "0.778 [0.453, 0.937]").containsKey("lowest.1");
    }

    @Test
    void stableNamesLeaveTheAggregateToTheMessageAndEntries() {
        // Surefire's default: a failed summary test rerun by rerunFailingTestsCount keeps its name, whatever it scores
        EngineRun run = new EngineRun(output).with(Constants.NODES, "summary").with(Constants.DISPLAY_NAMES, "stable")
                .execute(NodeModesFixture.class);

        TestDescriptor exact = summaryTest(run.results(), "exact_match");
        assertThat(exact.getDisplayName()).isEqualTo("recorded/node-modes/exact_match")
                .isEqualTo(exact.getLegacyReportingName());
        assertThat(outcome(run.results(), "exact_match").getThrowable().orElseThrow())
                .hasMessageContaining("score 0.778 [0.453, 0.937]");
        assertThat(entries(run.results(), "exact_match")).containsEntry("score", "0.778 [0.453, 0.937]");
    }

    @Test
    void underLowScoresReportASummaryTestPassesItsLowScoresStillMarkedButNotItsErrors() {
        EngineRun run = new EngineRun(output).with(Constants.NODES, "summary").with(Constants.LOW_SCORES, "report")
                .with(Constants.DISPLAY_NAMES, "full").execute(NodeModesFixture.class);

        assertThat(outcome(run.results(), "exact_match").getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(summaryTest(run.results(), "exact_match").getDisplayName()).contains(" (low) 7 passed, 2 scored low")
                .doesNotContain("✘");
        assertThat(outcome(run.results(), "brief").getThrowable().orElseThrow())
                .isNotInstanceOf(AssertionError.class).hasMessageContaining("ended in an error");
    }

    @Test
    void aSummaryTestErrsWhenACaseEndedInAnErrorWhichIsNeverALowScore() {
        EngineRun run = new EngineRun(output).with(Constants.NODES, "summary").with(Constants.DISPLAY_NAMES, "full")
                .execute(NodeModesFixture.class);

        TestExecutionResult result = outcome(run.results(), "brief");
        assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(result.getThrowable().orElseThrow()).isNotInstanceOf(AssertionError.class)
                .hasMessageStartingWith("1 of 10 results of brief on recorded (node-modes) ended in an error, kept "
                        + "out of the score")
                .hasMessageContaining("not low scores").hasMessageContaining("boom: ")
                .hasMessageContaining("brief exploded on boom");
        assertThat(summaryTest(run.results(), "brief").getDisplayName())
                .isEqualTo("recorded/node-modes/brief over 10 cases: 1.000 [0.701, 1.000] ! 9 passed, 1 error");
    }

    @Test
    void failedModelCallsMakeEveryScoresSummaryAnError() {
        EngineRun run = new EngineRun(output).with(Constants.NODES, "summary").execute(StatusFixture.class);

        for (String score : List.of("exact_match", "length")) {
            TestExecutionResult result = outcome(run.results(), score);
            assertThat(result.getThrowable().orElseThrow()).as(score).isNotInstanceOf(AssertionError.class)
                    .hasMessageContaining("model_down: ").hasMessageContaining("connection refused by model server");
        }
        assertThat(run.lines()).hasSize(10);
    }

    @Test
    void failuresModeRegistersTestsOnlyForLowScoresAndErrorsAndSummariesForTheRest() {
        EngineRun run = new EngineRun(output).with(Constants.NODES, "failures").with(Constants.DISPLAY_NAMES, "full")
                .execute(NodeModesFixture.class);

        List<UniqueId> tests = run.results().testEvents().started().list().stream()
                .map(event -> event.getTestDescriptor().getUniqueId()).collect(Collectors.toList());
        assertThat(tests).containsExactly(RECORDED.evalCase("b1").scorer("exact_match").build(),
                RECORDED.evalCase("boom").scorer("brief").build(),
                RECORDED.evalCase("b2").scorer("exact_match").build(), RECORDED.scores("exact_match").build(),
                RECORDED.scores("brief").build());
        run.assertNode("b1", "exact_match", "failed", "");
        run.assertNode("boom", "brief", "error", "brief exploded on boom");
        // the summaries stand for the passed and not applicable results: their low scores and errors are tests
        assertThat(outcome(run.results(), "exact_match").getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(outcome(run.results(), "brief").getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(summaryTest(run.results(), "exact_match").getDisplayName())
                .isEqualTo("recorded/node-modes/exact_match over 10 cases: 0.778 [0.453, 0.937] ✔ 7 passed, 2 scored low, "
                        + "1 not applicable");
        assertThat(run.lines()).hasSize(20);
    }

    @Test
    void theLeaderboardIsTheSameInEveryMode() throws Exception {
        String all = leaderboard("all");
        assertThat(leaderboard("failures")).isEqualTo(all);
        assertThat(leaderboard("summary")).isEqualTo(all).contains("\"accuracy\"");
    }

    @Test
    void eachDatasetContainerGetsItsOwnSummaryTests() {
        EngineRun run = new EngineRun(output).with(Constants.NODES, "summary").execute(TwoDatasetFixture.class);

        List<UniqueId> ids = run.results().testEvents().succeeded().list().stream()
                .map(event -> event.getTestDescriptor().getUniqueId()).collect(Collectors.toList());
        ArenaUniqueIdBuilder eval = evalClass(TwoDatasetFixture.class);
        assertThat(ids).containsExactlyInAnyOrder(
                eval.model("sim_small").dataset("greetings").scores("nonEmpty").build(),
                eval.model("sim_small").dataset("numbers").scores("nonEmpty").build(),
                eval.model("sim_large").dataset("greetings").scores("nonEmpty").build(),
                eval.model("sim_large").dataset("numbers").scores("nonEmpty").build());
        assertThat(run.results().testEvents().failed().count()).isZero();
    }

    @Test
    void repeatsAreReducedPerCaseAsTheLeaderboardReducesThem() {
        RepeatFixture.RUNS.clear();
        EngineRun run = new EngineRun(output).with(Constants.NODES, "summary").with(Constants.DISPLAY_NAMES, "full")
                .execute(RepeatFixture.class);

        // stable 1, flaky 3 of 5, broken 0: the mean of the case means, not of the 15 results
        TestDescriptor test = summaryTest(run.results(), "exact_match");
        assertThat(test.getDisplayName()).startsWith("sim_small/cases/exact_match over 3 cases: 0.533 [")
                .endsWith("8 passed, 7 scored low");
        assertThat(entries(run.results(), "exact_match")).containsEntry("interval", "normal")
                .containsEntry("lowest.1", "broken 0.00: expected 'yes' but got 'no'").doesNotContainKey("lowest.2");
        assertThat(Files.exists(output.resolve("leaderboard.json"))).isTrue();
    }

    @Test
    void selectingASummaryTestByItsUniqueIdRunsItsModelsCasesAgain() {
        UniqueId id = RECORDED.scores("exact_match").build();

        // by the id's text, as an IDE or Surefire reruns it
        EngineExecutionResults results = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.NODES, "summary")
                .selectors(selectUniqueId(id.toString())).execute();

        assertThat(results.testEvents().started().list()).extracting(e -> e.getTestDescriptor().getUniqueId())
                .contains(id);
        // a selection by unique id is a partial run of the class: it writes aside, in partial/
        assertThat(new EngineRun(output.resolve("partial")).lines()).hasSize(20);
    }

    @Test
    void anUnknownModeFailsTheEvalNamingTheKeyAndTheAcceptedValues() {
        EngineRun run = new EngineRun(output).with(Constants.NODES, "some").execute(NodeModesFixture.class);

        assertThat(run.results().allEvents().failed().list()).isNotEmpty().allSatisfy(event -> assertThat(
                event.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow())
                .hasMessageContaining("arena.nodes must be all, failures or summary, but was \"some\""));
        assertThat(run.results().testEvents().started().list())
                .noneMatch(event -> ArenaUniqueIdBuilder.isScores(event.getTestDescriptor().getUniqueId()));
    }

    private String leaderboard(String mode) throws Exception {
        Path directory = output.resolve(mode);
        EngineTestKit.engine(Constants.ENGINE_ID).configurationParameter(Constants.OUTPUT_DIR, directory.toString())
                .configurationParameter(Constants.NODES, mode)
                .selectors(org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(NodeModesFixture.class))
                .execute();
        return Files.readString(directory.resolve("leaderboard.json"));
    }

    private static TestDescriptor summaryTest(EngineExecutionResults results, String score) {
        return results.testEvents().started().list().stream().map(Event::getTestDescriptor)
                .filter(test -> anyEvalClass().scores(score).matches(test.getUniqueId()))
                .findFirst().orElseThrow(() -> new AssertionError("no summary test of " + score));
    }

    private static TestExecutionResult outcome(EngineExecutionResults results, String score) {
        TestDescriptor test = summaryTest(results, score);
        return results.testEvents().finished().list().stream().filter(e -> e.getTestDescriptor().equals(test))
                .map(e -> e.getPayload(TestExecutionResult.class).orElseThrow()).findFirst().orElseThrow();
    }

    private static Map<String, String> entries(EngineExecutionResults results, String score) {
        TestDescriptor test = summaryTest(results, score);
        return results.allEvents().reportingEntryPublished().list().stream()
                .filter(e -> e.getTestDescriptor().equals(test))
                .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs()).findFirst()
                .orElseThrow();
    }

    @SuppressWarnings("unused")
    private static JsonNode first(List<JsonNode> lines) {
        return lines.get(0);
    }
}
