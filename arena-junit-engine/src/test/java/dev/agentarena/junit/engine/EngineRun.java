package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.anyEvalClass;
import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.isCannotRun;
import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.simpleClassName;
import static org.assertj.core.api.Assertions.allOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.assertj.core.api.Condition;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;

/** Runs fixture evals through the engine with EngineTestKit and reads back what they wrote. */
final class EngineRun {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path output;
    private final Map<String, String> parameters = new LinkedHashMap<>();
    private boolean implicitParameters;
    private EngineExecutionResults results;

    EngineRun(Path output) {
        this.output = output;
        parameters.put(Constants.OUTPUT_DIR, output.toString());
        parameters.put(Constants.SIM_LATENCY_MS, "0");
        // a progress line depends on how long a run takes; ProgressEngineTest turns it on
        parameters.put(Constants.OUTPUT_PROGRESS, "off");
    }

    EngineRun with(String key, String value) {
        parameters.put(key, value);
        return this;
    }

    /** Also reads system properties and {@code junit-platform.properties}, as the launcher does outside tests. */
    EngineRun withImplicitParameters() {
        implicitParameters = true;
        return this;
    }

    EngineRun execute(Class<?> evalClass) {
        results = EngineTestKit.engine(Constants.ENGINE_ID).configurationParameters(parameters)
                .enableImplicitConfigurationParameters(implicitParameters)
                .selectors(selectClass(evalClass)).execute();
        return this;
    }

    EngineExecutionResults results() {
        return results;
    }

    /** The results.jsonl lines, in the order they were written. */
    List<JsonNode> lines() {
        Path file = output.resolve("results.jsonl");
        try {
            return Files.readAllLines(file).stream().map(EngineRun::parse).collect(Collectors.toList());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The one results.jsonl line of this case and score name. */
    JsonNode line(String caseId, String scorer) {
        List<JsonNode> matching = lines().stream().filter(l -> l.get("case_id").asText().equals(caseId)
                && l.get("scorer").asText().equals(scorer)).collect(Collectors.toList());
        if (matching.size() != 1) {
            throw new AssertionError(matching.size() + " result lines for " + caseId + "/" + scorer + " in " + lines());
        }
        return matching.get(0);
    }

    /** The report entry published by the scorer node whose unique id ends with these segments. */
    Map<String, String> reportEntry(String caseId, String scorerSegment) {
        ArenaUniqueIdBuilder suffix = anyEvalClass().evalCase(caseId).scorer(scorerSegment);
        return results.allEvents().reportingEntryPublished().stream()
                .filter(e -> suffix.matches(e.getTestDescriptor().getUniqueId()))
                .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs()).findFirst()
                .orElseThrow(() -> new AssertionError("no report entry for " + suffix));
    }

    /**
     * Asserts that the scorer node ended as the status says (passed: successful; failed: an assertion failure;
     * not_applicable: aborted; error: a failure that is not an assertion) with the reason in its message, and that
     * its results.jsonl line agrees.
     */
    JsonNode assertNode(String caseId, String scorerSegment, String status, String reason) {
        ArenaUniqueIdBuilder suffix = anyEvalClass().evalCase(caseId).scorer(scorerSegment);
        List<TestExecutionResult> finished = results.testEvents().finished().stream()
                .filter(e -> suffix.matches(e.getTestDescriptor().getUniqueId()))
                .map(e -> e.getPayload(TestExecutionResult.class).orElseThrow()).collect(Collectors.toList());
        assertThat(finished).as("finished nodes ending with %s", suffix).hasSize(1);
        TestExecutionResult result = finished.get(0);
        Throwable thrown = result.getThrowable().orElse(null);
        switch (status) {
            case "passed":
                assertThat(result.getStatus()).as("%s", suffix).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
                break;
            case "failed":
                assertThat(result.getStatus()).as("%s", suffix).isEqualTo(TestExecutionResult.Status.FAILED);
                assertThat(thrown).as("%s", suffix).isInstanceOf(AssertionError.class).hasMessageContaining(reason);
                break;
            case "not_applicable":
                assertThat(result.getStatus()).as("%s", suffix).isEqualTo(TestExecutionResult.Status.ABORTED);
                assertThat(thrown).as("%s", suffix).hasMessageContaining(reason);
                break;
            default:
                assertThat(result.getStatus()).as("%s", suffix).isEqualTo(TestExecutionResult.Status.FAILED);
                assertThat(thrown).as("%s", suffix).isNotInstanceOf(AssertionError.class).hasMessageContaining(reason);
                break;
        }
        String scoreName = scorerSegment.replaceFirst("#\\d+$", "");
        JsonNode line = lines().stream().filter(l -> l.get("case_id").asText().equals(caseId)
                && l.get("scorer").asText().equals(scoreName) && l.get("status").asText().equals(status))
                .findFirst().orElseThrow(() -> new AssertionError("no " + status + " line for " + suffix));
        assertThat(line.get("reason").asText()).as("%s", suffix).contains(reason);
        return line;
    }

    /** The {@code cannot run} test of an eval class, by its simple name, that failed to start. */
    static Condition<Event> cannotRun(String simpleClassName) {
        return allOf(test(), new Condition<>(event -> isCannotRun(event.getTestDescriptor().getUniqueId())
                && simpleClassName(event.getTestDescriptor().getUniqueId()).equals(simpleClassName),
                "the cannot-run test of %s", simpleClassName));
    }

    /** The scorer node of this case and scorer segment. */
    static Condition<Event> scorer(String caseId, String scorer) {
        return allOf(test(), anyEvalClass().evalCase(caseId).scorer(scorer).node());
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        }
        catch (IOException e) {
            throw new UncheckedIOException("results.jsonl holds a line that is not JSON: "
                    + (line.length() > 2000 ? line.substring(0, 2000) + "..." : line), e);
        }
    }
}
