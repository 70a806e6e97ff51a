package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.Event;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.MissingScorerOptionException;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.fixtures.SharedProblemsFixture;

/**
 * A configuration problem every case shares is one error, at the first case in dataset order, naming the option or
 * key and where to set it; the results it stops are still written, each not run, saying why and where it was reported.
 */
class SharedProblemsEngineTest {

    private static final String REPORTED = "reported once, as the error of case 'c01'";

    @TempDir
    Path output;

    @Test
    void aScorerWithoutAnOptionItNeedsIsOneErrorAndItsOtherResultsAreNotRun() {
        EngineRun run = new EngineRun(output).execute(SharedProblemsFixture.class);

        List<JsonNode> classification = lines(run, "recorded", "classification");
        assertThat(classification).hasSize(SharedProblemsFixture.CASES);
        JsonNode first = classification.get(0);
        assertThat(first.get("case_id").asText()).isEqualTo("c01");
        assertThat(first.get("status").asText()).isEqualTo("error");
        assertThat(first.get("reason").asText()).startsWith("scorer 'classification' needs option 'labels'")
                .contains("arena.scorers.options.classification.labels", "@ScorerOption", "scorer_options");
        for (JsonNode line : classification.subList(1, SharedProblemsFixture.CASES - 1)) {
            assertThat(line.get("status").asText()).as("%s", line).isEqualTo("not_run");
            assertThat(line.get("reason").asText()).as("%s", line).contains("needs option 'labels'", REPORTED);
            assertThat(line.get("score").isNull()).isTrue();
            assertThat(line.get("error").isNull()).as("not run is no error").isTrue();
        }
        // a case that sets the option itself is graded, and so is every case by the scorer that needs nothing
        JsonNode labelled = classification.get(SharedProblemsFixture.CASES - 1);
        assertThat(labelled.get("case_id").asText()).isEqualTo("labelled");
        assertThat(labelled.get("status").asText()).isEqualTo("passed");
        assertThat(lines(run, "recorded", "answered")).hasSize(SharedProblemsFixture.CASES)
                .allSatisfy(line -> assertThat(line.get("status").asText()).isEqualTo("passed"));
    }

    @Test
    void aModelKeyNoClientServesIsOneErrorAndEveryOtherResultOfThatModelIsNotRun() {
        EngineRun run = new EngineRun(output).execute(SharedProblemsFixture.class);

        List<JsonNode> lines = run.lines().stream().filter(line -> line.get("model").asText().equals("nowhere-model"))
                .collect(Collectors.toList());
        assertThat(lines).as("every case and scorer still has its line").hasSize(2 * SharedProblemsFixture.CASES);
        List<JsonNode> errors = lines.stream().filter(line -> line.get("status").asText().equals("error"))
                .collect(Collectors.toList());
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0).get("case_id").asText()).isEqualTo("c01");
        assertThat(errors.get(0).get("reason").asText())
                .contains("No model client supports the model key 'nowhere-model'")
                .contains("model key set by @UseModels or an @EvalModel member of " + SharedProblemsFixture.class.getName());
        assertThat(lines).filteredOn(line -> !line.get("status").asText().equals("error")).allSatisfy(line -> {
            assertThat(line.get("status").asText()).isEqualTo("not_run");
            assertThat(line.get("reason").asText()).contains("No model client supports", REPORTED);
        });
    }

    @Test
    void theTestsSayTheSameTwoErrorsOnceAndAbortTheRestWithTheReason() {
        EngineRun run = new EngineRun(output).execute(SharedProblemsFixture.class);

        List<Throwable> failures = run.results().testEvents().failed().stream().map(SharedProblemsEngineTest::thrown)
                .collect(Collectors.toList());
        assertThat(failures).hasSize(2);
        assertThat(failures).filteredOn(MissingScorerOptionException.class::isInstance).hasSize(1);
        assertThat(failures).filteredOn(ConfigurationException.class::isInstance).hasSize(1);
        long notRun = run.lines().stream().filter(line -> line.get("status").asText().equals("not_run")).count();
        List<Throwable> aborted = run.results().testEvents().aborted().stream().map(SharedProblemsEngineTest::thrown)
                .collect(Collectors.toList());
        // nowhere-model: all but its one error; recorded: classification but its error and its labelled case
        assertThat(notRun).isEqualTo(2L * SharedProblemsFixture.CASES - 1 + SharedProblemsFixture.CASES - 2);
        assertThat(aborted).hasSize((int) notRun).allSatisfy(abort -> {
            assertThat(abort.getMessage()).startsWith("not run: ").contains(REPORTED);
            assertThat(abort.getStackTrace()).as("a verdict, not a failure of code").isEmpty();
        });
    }

    private static List<JsonNode> lines(EngineRun run, String model, String scorer) {
        return run.lines().stream().filter(line -> line.get("model").asText().equals(model)
                && line.get("scorer").asText().equals(scorer)).collect(Collectors.toList());
    }

    private static Throwable thrown(Event event) {
        return event.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable).orElseThrow();
    }
}
