package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.agents.HandWrittenAgentFixture;

/**
 * A hand-written agent loop over the case's {@code Model} runs its whole tool loop through the engine on the
 * simulated agent: several model turns per case, tool calls with ids, and, when the model makes no slip, exactly the
 * case's expected trajectory.
 */
class SimulatedAgentEngineTest {

    private static final List<String> CASES = List.of("order-1", "order-2", "order-3", "order-4");

    @TempDir
    Path output;

    @TempDir
    Path faultlessOutput;

    @Test
    void aHandWrittenLoopRunsAtLeastThreeModelTurnsPerCaseOnSimLarge() {
        EngineRun run = new EngineRun(output).execute(HandWrittenAgentFixture.class);

        for (String caseId : CASES) {
            JsonNode line = run.assertNode(caseId, "enough_turns", "passed", "model turns");
            int turns = Integer.parseInt(line.get("reason").asText().split(" ")[0]);
            assertThat(turns).as(caseId).isBetween(4, HandWrittenAgentFixture.MAX_TURNS);
        }
    }

    @Test
    void withoutSlipsEveryCaseFollowsItsExpectedTrajectoryAndAnswers() {
        EngineRun run = new EngineRun(faultlessOutput)
                .with("arena.models.sim_large.accuracy", "1")
                .with("arena.models.sim_large.wrong-tool-rate", "0")
                .with("arena.models.sim_large.wrong-argument-rate", "0")
                .with("arena.models.sim_large.missing-argument-rate", "0")
                .with("arena.models.sim_large.extra-call-rate", "0")
                .with("arena.models.sim_large.loop-rate", "0")
                .execute(HandWrittenAgentFixture.class);

        for (String caseId : CASES) {
            run.assertNode(caseId, "followed_plan", "passed", "called lookup_order,refund,escalate");
            run.assertNode(caseId, "enough_turns", "passed", "4 model turns");
        }
        assertThat(run.line("order-2", "followed_plan").get("output").asText()).isEqualTo("Order 2 is refunded.");
    }
}
