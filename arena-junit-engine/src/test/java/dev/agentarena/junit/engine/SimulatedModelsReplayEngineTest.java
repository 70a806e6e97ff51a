package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.recording.SimulatedHelpersFixture;
import dev.agentarena.junit.engine.integration.LoopbackOpenAi;

/**
 * In {@code replay} mode the simulated models (a {@code sim_user} playing the user, {@code sim_judge} grading, a
 * simulated agent) answer live what no recording holds: they need no key and answer the same on every run, so a
 * replayed agent run needs only the agent's recording.
 */
class SimulatedModelsReplayEngineTest {

    private static final String AGENT = "openai:gpt-4o-mini";

    @TempDir
    Path output;

    @TempDir
    Path recordings;

    @Test
    void aReplayedAgentRunPassesWithoutRecordingsOfTheSimulatedUserJudgeAndAgent() throws IOException {
        EngineRun recorded;
        try (LoopbackOpenAi server = LoopbackOpenAi.answering(request -> LoopbackOpenAi.text(
                "Your refund is issued for order 77.", "gpt-4o-mini-2024-07-18", 30, 9))) {
            recorded = run("record").with("arena.models." + AGENT + ".base-url", server.baseUrl())
                    .execute(SimulatedHelpersFixture.class);
        }
        List<String> simulated = List.of("sim_user", "sim_judge", "sim_small");
        for (String model : simulated) {
            assertThat(recordings.resolve(model)).as("recorded, then deleted").isDirectory();
            delete(recordings.resolve(model));
        }

        // CI: the agent's recording only, no key, nothing listening
        EngineRun replayed = run("replay").execute(SimulatedHelpersFixture.class);

        for (String model : List.of(AGENT, "sim_small")) {
            JsonNode was = line(recorded, model);
            JsonNode is = line(replayed, model);
            assertThat(is.get("status").asText()).as(model).isEqualTo("passed").isEqualTo(was.get("status").asText());
            assertThat(is.get("reason").asText()).as(model).isEqualTo(was.get("reason").asText());
            assertThat(is.get("metrics").get("goal_met").asDouble()).as(model).isEqualTo(1.0);
            assertThat(is.get("metrics").get("user_cost_usd").asDouble()).as("%s: the user answered live", model)
                    .isPositive();
        }
        assertThat(line(replayed, AGENT).get("cost_usd").asDouble()).as("the agent replayed").isZero();
        assertThat(line(replayed, "sim_small").get("cost_usd").asDouble()).as("sim_small answered live")
                .isPositive();
        assertThat(recordings.resolve("sim_judge")).as("replay writes nothing").doesNotExist();
    }

    private EngineRun run(String mode) throws IOException {
        return new EngineRun(Files.createTempDirectory(output, mode)).with(Constants.MODELS, AGENT + ",sim_small")
                .with(Constants.MODEL_SETTINGS_PREFIX + "sim_small.accuracy", "1")
                .with(Constants.CACHE_MODE, mode).with(Constants.CACHE_DIR, recordings.toString());
    }

    private static JsonNode line(EngineRun run, String model) {
        return run.lines().stream().filter(line -> line.get("model").asText().equals(model)).findFirst()
                .orElseThrow(() -> new AssertionError("no line of " + model + " in " + run.lines()));
    }

    private static void delete(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
