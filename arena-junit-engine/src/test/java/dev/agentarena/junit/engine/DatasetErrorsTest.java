package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.EngineRun.cannotRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import org.junit.platform.engine.support.descriptor.FileSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.fixtures.BadRowsFixture;
import dev.agentarena.junit.engine.fixtures.ConfiguredFixture;
import dev.agentarena.junit.engine.fixtures.MissingDatasetFixture;
import dev.agentarena.junit.engine.fixtures.TaggedFilesFixture;

/** Bad datasets and configuration, end to end: what fails, with which message, and what still runs. */
class DatasetErrorsTest {

    @TempDir
    Path output;

    private EngineExecutionResults run(Class<?> evalClass, Map<String, String> parameters) {
        return EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.SIM_LATENCY_MS, "0")
                .configurationParameters(parameters)
                .selectors(selectClass(evalClass))
                .execute();
    }

    @Test
    void aMissingDatasetFileFailsTheClassNamingTheFileAndWhereItLooked() {
        EngineExecutionResults results = run(MissingDatasetFixture.class, Map.of());

        results.testEvents().assertThatEvents().haveExactly(1, event(cannotRun("MissingDatasetFixture"),
                finishedWithFailure(instanceOf(ConfigurationException.class), message(m ->
                        m.contains("Dataset file 'no-such-dataset.jsonl' not found")
                                && m.contains("classpath resource dev/agentarena/junit/engine/fixtures/no-such-dataset.jsonl")
                                && m.contains("classpath resource no-such-dataset.jsonl")
                                && m.contains("file " + Path.of("").toAbsolutePath().resolve("no-such-dataset.jsonl"))))));
        assertThat(results.testEvents().started().count()).as("the cannot run test only").isEqualTo(1);
        assertThat(results.containerEvents().started().count()).as("engine and class only").isEqualTo(2);
    }

    @Test
    void aMalformedArenaYamlFailsTheClassNamingTheFileAndLine(@TempDir Path project) throws IOException {
        Path config = Files.writeString(project.resolve("broken.yaml"), "concurrency: 2\nscorers: [a\nmodels: x\n");

        EngineExecutionResults results = run(ConfiguredFixture.class,
                Map.of(Constants.PROJECT_ROOT, project.toString(), Constants.CONFIG, "broken.yaml"));

        results.testEvents().assertThatEvents().haveExactly(1, event(cannotRun("ConfiguredFixture"),
                finishedWithFailure(instanceOf(ConfigurationException.class), message(m ->
                        m.contains("Cannot parse the configuration file " + config) && m.contains("line ")))));
        assertThat(results.testEvents().started().count()).as("the cannot run test only").isEqualTo(1);
    }

    @Test
    void aConfigFileThatDoesNotExistFailsTheClassNamingWhereItLooked(@TempDir Path project) {
        EngineExecutionResults results = run(ConfiguredFixture.class,
                Map.of(Constants.PROJECT_ROOT, project.toString(), Constants.CONFIG, "ci.yaml"));

        results.testEvents().assertThatEvents().haveExactly(1, event(cannotRun("ConfiguredFixture"),
                finishedWithFailure(message(m -> m.contains(project.resolve("ci.yaml").toString())
                        && m.contains("arena.config=ci.yaml") && m.contains("does not exist")))));
    }

    @Test
    void aBrokenJsonLineFailsAloneNamingFileAndLineAndEveryOtherCaseRuns() throws IOException {
        EngineExecutionResults results = run(BadRowsFixture.class, Map.of());

        assertThat(failureMessage(results, "bad-lines.jsonl:3"))
                .startsWith("bad-lines.jsonl:3: malformed JSON");
        Map<String, JsonNode> lines = results("bad-lines");
        assertThat(lines).containsOnlyKeys("first", "second", "bad-lines.jsonl:3", "no_input", "first#2",
                "typo_scorer", "contains_case", "last");
        assertThat(lines.get("bad-lines.jsonl:3").get("status").asText()).isEqualTo("error");
        assertThat(lines.get("bad-lines.jsonl:3").get("error").asText()).contains("bad-lines.jsonl:3");
        for (String good : List.of("first", "second", "contains_case", "last")) {
            assertThat(lines.get(good).get("status").asText()).as(good).isEqualTo("passed");
        }
    }

    @Test
    void aRowWithoutInputFailsNamingFileLineAndField() {
        EngineExecutionResults results = run(BadRowsFixture.class, Map.of());

        assertThat(failureMessage(results, "no_input")).contains("bad-lines.jsonl:4").contains("no input");
    }

    @Test
    void aDuplicateIdFailsTheLaterRowAndKeepsBothVisible() {
        EngineExecutionResults results = run(BadRowsFixture.class, Map.of());

        assertThat(failureMessage(results, "first#2")).contains("bad-lines.jsonl:5")
                .contains("duplicate id 'first' (first at line 1)");
        assertThat(scorerEvents(results, "first")).isNotEmpty();
    }

    @Test
    void anUnknownEvalTypeListsTheKnownScorersAndSuggestsTheNearest() {
        EngineExecutionResults results = run(BadRowsFixture.class, Map.of());

        assertThat(failureMessage(results, "typo_scorer")).contains("Unknown scorer 'exact_mach'")
                .contains("Did you mean 'exact_match'?").contains("Known scorers: ").contains("contains");
    }

    @Test
    void aWrongTypedScorerOptionFailsThatScorerNamingOptionAndValue() throws IOException {
        EngineExecutionResults results = run(BadRowsFixture.class,
                Map.of(Constants.SCORER_OPTIONS_PREFIX + "contains.case_sensitive", "maybe"));

        assertThat(failureMessage(results, "contains_case")).contains("case_sensitive").contains("\"maybe\"")
                .contains("contains").contains("true or false");
        assertThat(results("bad-lines").get("contains_case").get("status").asText()).isEqualTo("error");
        assertThat(results("bad-lines").get("first").get("status").asText()).isEqualTo("passed");
    }

    @Test
    void aYamlSyntaxErrorFailsOneCaseAtItsLineAfterTheRowsBeforeIt() throws IOException {
        EngineExecutionResults results = run(BadRowsFixture.class, Map.of());

        Map<String, JsonNode> lines = results("bad-syntax");
        assertThat(lines.get("y_first").get("status").asText()).isEqualTo("passed");
        List<String> broken = lines.keySet().stream().filter(id -> !id.equals("y_first")).collect(Collectors.toList());
        assertThat(broken).hasSize(1);
        assertThat(failureMessage(results, broken.get(0))).startsWith("bad-syntax.yaml:")
                .contains("the rest of the file was not read");
    }

    @Test
    void aBadCsvRecordFailsAloneAndReadingGoesOn() throws IOException {
        EngineExecutionResults results = run(BadRowsFixture.class, Map.of());

        Map<String, JsonNode> lines = results("bad-record");
        assertThat(lines.get("c_first").get("status").asText()).isEqualTo("passed");
        assertThat(lines.get("c_last").get("status").asText()).isEqualTo("passed");
        String bad = lines.keySet().stream().filter(id -> !id.startsWith("c_f") && !id.startsWith("c_l"))
                .findFirst().orElseThrow();
        assertThat(failureMessage(results, bad)).contains("bad-record.csv:3").contains("bad CSV record");
    }

    @Test
    void caseNodesPointAtTheEditableDatasetLineNotTheCopyInTarget() {
        EngineExecutionResults results = run(TaggedFilesFixture.class, Map.of());

        TestDescriptor invoice = results.containerEvents().started().stream().map(Event::getTestDescriptor)
                .filter(d -> d.getUniqueId().getLastSegment().getValue().equals("t_invoice")).findFirst()
                .orElseThrow();
        FileSource source = (FileSource) invoice.getSource().orElseThrow();
        Path expected = Path.of("src/test/resources/dev/agentarena/junit/engine/fixtures/tagged-tickets.jsonl")
                .toAbsolutePath();
        assertThat(source.getFile().toPath()).isEqualTo(expected);
        assertThat(source.getPosition().orElseThrow().getLine()).isEqualTo(3);
        TestDescriptor scorer = invoice.getChildren().iterator().next();
        assertThat(scorer.getSource()).contains(source);
    }

    private static List<Event> scorerEvents(EngineExecutionResults results, String caseId) {
        return results.testEvents().finished().stream()
                .filter(e -> e.getTestDescriptor().getParent().orElseThrow().getUniqueId().getLastSegment()
                        .getValue().equals(caseId))
                .collect(Collectors.toList());
    }

    private static String failureMessage(EngineExecutionResults results, String caseId) {
        List<Event> events = scorerEvents(results, caseId);
        assertThat(events).as("scorer nodes of " + caseId).isNotEmpty();
        Throwable error = events.get(0).getPayload(TestExecutionResult.class).orElseThrow().getThrowable()
                .orElseThrow(() -> new AssertionError(caseId + " did not fail"));
        return error.getMessage();
    }

    /** results.jsonl lines of one dataset, by case id. */
    private Map<String, JsonNode> results(String dataset) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        Function<String, JsonNode> parse = line -> {
            try {
                return mapper.readTree(line);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        return Files.readAllLines(output.resolve("results.jsonl")).stream().map(parse)
                .filter(node -> node.get("dataset").asText().equals(dataset))
                .collect(Collectors.toMap(node -> node.get("case_id").asText(), node -> node));
    }
}
