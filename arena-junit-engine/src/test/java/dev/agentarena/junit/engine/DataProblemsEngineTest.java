package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.EngineRun.cannotRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.Event;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.datasets.DatasetRowException;
import dev.agentarena.junit.engine.fixtures.DataProblemsFixtures;
import dev.agentarena.junit.engine.fixtures.TriageFixture;

/**
 * Data that would otherwise be read silently, end to end: each problem is a failed test (an error, never a low score)
 * whose message names the file and line, with its results line, while the good rows of the same eval still pass.
 */
class DataProblemsEngineTest {

    @TempDir
    Path output;

    @Test
    void anEmptyDatasetIsAFailedTestNamedAfterTheFileOnEveryModelNotZeroTests() {
        EngineRun run = new EngineRun(output).execute(DataProblemsFixtures.EmptyJsonLines.class);

        List<Event> finished = run.results().testEvents().finished().list();
        assertThat(finished).as("one test per model").hasSize(2).allSatisfy(event -> {
            TestDescriptor test = event.getTestDescriptor();
            assertThat(test.getLegacyReportingName()).matches("sim_(small|large)/empty\\[empty\\.jsonl\\]/exact_match");
            TestExecutionResult result = event.getPayload(TestExecutionResult.class).orElseThrow();
            assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
            assertThat(result.getThrowable().orElseThrow()).isInstanceOf(DatasetRowException.class)
                    .hasMessage("data-problems/empty.jsonl:1: no cases: the file is empty; a dataset needs at least"
                            + " one case");
        });
        assertThat(run.lines()).hasSize(2).allSatisfy(line -> {
            assertThat(line.get("case_id").asText()).isEqualTo("empty.jsonl");
            assertThat(line.get("status").asText()).isEqualTo("error");
            assertThat(line.get("error").asText()).contains("data-problems/empty.jsonl:1: no cases");
        });
    }

    @Test
    void everyEmptyFormatAndAHeaderOnlyCsvFailWhileTheGoodDatasetRuns() {
        EngineRun run = new EngineRun(output).execute(DataProblemsFixtures.EmptyFiles.class);

        Map<String, JsonNode> byDataset = run.lines().stream().filter(l -> l.get("status").asText().equals("error"))
                .collect(Collectors.toMap(l -> l.get("dataset").asText(), Function.identity()));
        assertThat(byDataset).containsOnlyKeys("empty_json", "empty_yaml", "header-only");
        assertThat(byDataset.get("empty_json").get("case_id").asText()).isEqualTo("empty.json");
        assertThat(byDataset.get("empty_json").get("error").asText()).endsWith("data-problems/empty.json:1: no cases:"
                + " the file is empty; a dataset needs at least one case");
        assertThat(byDataset.get("empty_yaml").get("error").asText()).contains("data-problems/empty.yaml:1: no cases:"
                + " the file is empty");
        assertThat(byDataset.get("header-only").get("case_id").asText()).isEqualTo("header-only.csv");
        assertThat(byDataset.get("header-only").get("error").asText()).contains("data-problems/header-only.csv:1: no"
                + " cases: the file has a header row and no records");
        assertThat(run.lines().stream().filter(l -> l.get("dataset").asText().equals("documents")))
                .extracting(l -> l.get("status").asText()).containsExactly("passed", "passed", "passed");
    }

    @Test
    void aDatasetMethodThatReturnsNoCaseFailsNamedAfterTheMethod() {
        EngineRun run = new EngineRun(output).execute(DataProblemsFixtures.EmptyMethod.class);

        JsonNode line = run.line("EmptyMethod.cases()", "exact_match");
        assertThat(line.get("status").asText()).isEqualTo("error");
        assertThat(line.get("error").asText()).contains("dataset method EmptyMethod.cases() returned no cases");
        assertThat(run.results().testEvents().failed().count()).isEqualTo(1);
    }

    @Test
    void aYamlAliasFailsItsCaseNamingFileLineAndAlias() {
        EngineRun run = new EngineRun(output).execute(DataProblemsFixtures.SilentData.class);

        assertError(run, "aliased", "data-problems/aliases.yaml:5: YAML alias '*four' (line 7) is not supported");
        assertPassed(run, "aliases", "anchored", "plain");
    }

    @Test
    void aKeyGivenTwiceFailsItsCaseNamingFileLineAndKeyInEveryFormat() {
        EngineRun run = new EngineRun(output).execute(DataProblemsFixtures.SilentData.class);

        assertError(run, "twice", "data-problems/repeated-keys.jsonl:2: key 'reference' appears twice");
        assertError(run, "nested", "data-problems/repeated-keys.jsonl:3: key 'metadata.channel' appears twice");
        assertError(run, "j_twice", "data-problems/repeated-keys.json:3: key 'input' appears twice");
        assertError(run, "y_twice", "data-problems/repeated-keys.yaml:1: key 'reference' appears twice (line 4)");
        assertError(run, "repeated-column.csv:1", "data-problems/repeated-column.csv:1: bad header: column 'input'"
                + " appears twice (columns 2 and 4)");
        assertPassed(run, "keys_jsonl", "once");
        assertPassed(run, "keys_json", "j_once", "j_after");
        assertPassed(run, "keys_yaml", "y_after");
    }

    @Test
    void bytesThatAreNotUtf8FailTheirCaseNamingFileAndLine() {
        EngineRun run = new EngineRun(output).execute(DataProblemsFixtures.SilentData.class);

        assertError(run, "not-utf8.jsonl:2", "data-problems/not-utf8.jsonl:2: not valid UTF-8 (byte 0xE9)");
        assertPassed(run, "utf8_jsonl", "u_before", "u_after");
        // in a CSV, JSON or YAML file the parser cannot resume inside the bad record: the rows before it still run
        assertError(run, "not-utf8.csv:3", "data-problems/not-utf8.csv:3: not valid UTF-8 (byte 0xE9)");
        assertPassed(run, "utf8_csv", "v_before");
    }

    @Test
    void everyDocumentOfAMultiDocumentYamlFileRuns() {
        EngineRun run = new EngineRun(output).execute(DataProblemsFixtures.SilentData.class);

        assertPassed(run, "documents", "doc1", "doc2", "doc3");
    }

    @Test
    void anExplicitIdOfTheShapeOfAMadeUpOneKeepsItInEveryFormat() {
        EngineRun run = new EngineRun(output).execute(DataProblemsFixtures.MadeUpIds.class);

        for (String format : List.of("jsonl", "json", "yaml", "csv")) {
            String dataset = "ids_" + format;
            List<JsonNode> lines = run.lines().stream().filter(l -> l.get("dataset").asText().equals(dataset))
                    .toList();
            assertThat(lines).as(dataset).extracting(l -> l.get("case_id").asText())
                    .containsExactlyInAnyOrder("x", "x#3", "x#2");
            assertPassed(run, dataset, "x", "x#2");
            JsonNode duplicate = lines.stream().filter(l -> l.get("case_id").asText().equals("x#3")).findFirst()
                    .orElseThrow();
            assertThat(duplicate.get("status").asText()).as(dataset).isEqualTo("error");
            // the rows' lines: the CSV's header and the JSON's '[' come first, a YAML row takes three
            int first = format.equals("csv") || format.equals("json") ? 2 : 1;
            int line = format.equals("yaml") ? 4 : first + 1;
            assertThat(duplicate.get("error").asText()).as(dataset).endsWith(": data-problems/made-up-ids." + format
                    + ":" + line + ": duplicate id 'x' (first at line " + first + ")");
        }
        assertThat(run.lines()).hasSize(12);
        assertThat(run.results().testEvents().failed().list()).as("the four duplicates").hasSize(4)
                .allSatisfy(event -> {
                    assertThat(event.getTestDescriptor().getParent().orElseThrow().getUniqueId().getLastSegment()
                            .getValue()).isEqualTo("x#3");
                    assertThat(event.getPayload(TestExecutionResult.class).orElseThrow().getThrowable()
                            .orElseThrow()).isInstanceOf(DatasetRowException.class)
                            .hasMessageContaining("duplicate id 'x'");
                });
        assertThat(run.results().testEvents().succeeded().count()).isEqualTo(8);
    }

    @Test
    void aDirectoryNamedLikeADatasetFailsTheClassSayingItIsADirectory() {
        EngineRun run = new EngineRun(output).execute(DataProblemsFixtures.DirectoryDataset.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(cannotRun("DirectoryDataset"),
                finishedWithFailure(instanceOf(ConfigurationException.class), message(m -> m.startsWith(
                        "dev.agentarena.junit.engine.fixtures.DataProblemsFixtures$DirectoryDataset cannot run: ")
                        && m.contains("Dataset file 'data-problems/a-directory.jsonl' is a directory, not a file:"
                                + " classpath resource dev/agentarena/junit/engine/fixtures/data-problems/"
                                + "a-directory.jsonl")
                        && !m.contains("not found")))));
        assertThat(run.results().testEvents().started().count()).as("the cannot run test only").isEqualTo(1);
    }

    @Test
    void anExplicitlyEmptyModelsSettingFailsTheClassInsteadOfFallingBackToModels() {
        EngineRun run = new EngineRun(output).with(Constants.MODELS, "").execute(TriageFixture.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(cannotRun("TriageFixture"),
                finishedWithFailure(message(m -> m.contains("arena.models is set but empty (from the JUnit"
                        + " configuration parameters, system properties or junit-platform.properties)")))));
        assertThat(run.results().testEvents().started().count()).as("the cannot run test only").isEqualTo(1);
    }

    @Test
    void anEmptyModelsListInArenaYamlNamesTheFileAndLine(@TempDir Path project) throws IOException {
        Path config = Files.writeString(project.resolve("arena.yaml"), "concurrency: 2\nmodels: []\n");

        EngineRun run = new EngineRun(output).with(Constants.PROJECT_ROOT, project.toString())
                .execute(TriageFixture.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(cannotRun("TriageFixture"),
                finishedWithFailure(message(m -> m.contains("arena.models is set but empty (in " + config
                        + ", line 2)")))));
        assertThat(run.results().testEvents().started().count()).as("the cannot run test only").isEqualTo(1);
    }

    private static void assertError(EngineRun run, String caseId, String messageStart) {
        JsonNode line = run.line(caseId, "exact_match");
        assertThat(line.get("status").asText()).as(caseId).isEqualTo("error");
        assertThat(line.get("error").asText()).as(caseId).contains(messageStart);
        Throwable thrown = run.results().testEvents().finished().stream()
                .filter(e -> e.getTestDescriptor().getParent().orElseThrow().getUniqueId().getLastSegment()
                        .getValue().equals(caseId))
                .map(e -> e.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow())
                .findFirst().orElseThrow(() -> new AssertionError("no failed test for case " + caseId));
        assertThat(thrown).as(caseId).isInstanceOf(DatasetRowException.class).hasMessageStartingWith(messageStart);
    }

    private static void assertPassed(EngineRun run, String dataset, String... caseIds) {
        for (String caseId : caseIds) {
            JsonNode line = run.lines().stream().filter(l -> l.get("dataset").asText().equals(dataset)
                    && l.get("case_id").asText().equals(caseId)).findFirst()
                    .orElseThrow(() -> new AssertionError("no line for " + dataset + "/" + caseId));
            assertThat(line.get("status").asText()).as(dataset + "/" + caseId).isEqualTo("passed");
        }
    }
}
