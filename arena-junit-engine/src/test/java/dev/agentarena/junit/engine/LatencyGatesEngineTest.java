package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.anyEvalClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.fixtures.TriageFixture;

/** Latency gates ({@code arena.gates.max-latency-p50-ms}, {@code -p95-ms}) run through the engine. */
class LatencyGatesEngineTest {

    @TempDir
    Path output;

    @Test
    void aModelsP95AboveItsGateFailsTheGateTestNamingTheLeaderboardsValue() throws Exception {
        // sim_small sleeps 15 to 25 ms per call, so its p95 is never within 1 ms; sim_large's median within ten minutes
        EngineRun run = new EngineRun(output).with("arena.models.sim_small.latency-ms", "20")
                .with("arena.gates.max-latency-p95-ms.triage-fixture.sim_small", "1")
                .with("arena.gates.max-latency-p50-ms.triage-fixture.sim_large", "600000")
                .execute(TriageFixture.class);

        JsonNode small = model(new ObjectMapper().readTree(Files.readString(output.resolve("leaderboard.json"))),
                "sim_small");
        assertThat(small.get("latencyP95Ms").asDouble()).isGreaterThanOrEqualTo(15);
        run.results().testEvents().assertThatEvents()
                .haveExactly(1, event(anyEvalClass().gate("max-latency-p95-ms.triage-fixture.sim_small").node(),
                        finishedWithFailure(instanceOf(AssertionFailedError.class), message(String.format(Locale.ROOT,
                                "gate failed: triage-fixture / sim_small p95 latency %.0f ms > 1 ms "
                                        + "(max-latency-p95-ms)", small.get("latencyP95Ms").asDouble())))))
                .haveExactly(1, event(anyEvalClass().gate("max-latency-p50-ms.triage-fixture.sim_large").node(),
                        finishedSuccessfully()));
    }

    private static JsonNode model(JsonNode leaderboard, String key) {
        for (JsonNode eval : leaderboard.path("evals")) {
            for (JsonNode model : eval.path("models")) {
                if (model.path("model").asText().equals(key)) {
                    return model;
                }
            }
        }
        throw new AssertionError("no " + key + " in " + leaderboard);
    }
}
