package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.TestExecutionResult;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.scoring.RandomScoresFixture;

/**
 * Property: whatever a scorer returns (any verdict, any reason, {@code detail} and {@code metrics} maps with nulls,
 * nesting, empty maps, odd keys, values that do not serialise or contain themselves, named scores with odd names),
 * the JUnit outcome of each test agrees with its {@code results.jsonl} line, with Allure tracking the tests.
 *
 * <p>The seeds are fixed so the build is repeatable; try others with {@code -Drandom-scores.seeds=7,8,9}. A failure
 * names its seed.
 */
class RandomScoresPropertyTest {

    @TempDir
    Path output;

    static LongStream seeds() {
        String seeds = System.getProperty("random-scores.seeds", "1,2,3");
        return java.util.Arrays.stream(seeds.split(",")).map(String::strip).mapToLong(Long::parseLong);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyTestAgreesWithItsResultsLine(long seed) throws Exception {
        RandomScoresFixture.seed = seed;
        RandomScoresFixture.cases = 120;
        InMemoryAllure allure = new InMemoryAllure();

        EngineRun run = allure.around(() -> new EngineRun(output).execute(RandomScoresFixture.class));

        assertThat(OutcomeAgreement.disagreements(run, "random-scores", null)).as("seed %d", seed).isEmpty();
        Set<String> statuses = new TreeSet<>();
        for (JsonNode line : run.lines()) {
            statuses.add(line.get("status").asText());
        }
        assertThat(statuses).as("seed %d reaches every status", seed)
                .contains("passed", "failed", "not_applicable", "error");
        // the run itself finished: the leaderboard was written and the engine did not fail
        assertThat(run.results().containerEvents().failed().list()).as("seed %d: failed containers", seed)
                .extracting(e -> e.getTestDescriptor().getUniqueId() + " " + e.getPayload(TestExecutionResult.class)
                        .flatMap(TestExecutionResult::getThrowable).orElse(null))
                .isEmpty();
        assertThat(Files.exists(output.resolve("leaderboard.json"))).isTrue();
    }
}
