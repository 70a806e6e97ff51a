package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.agents.PerTurnScoringFixture;
import dev.agentarena.junit.engine.fixtures.agents.SimulatedUserFixture;
import dev.agentarena.junit.engine.fixtures.agents.SimulatedUserTaskFixture;
import dev.agentarena.junit.engine.fixtures.agents.UnreferencedUserFixture;

/**
 * Conversations the engine runs with a simulated user, on the offline models: each ends when the user is done, when
 * the answer matches the stop, or at the turn limit (a result, not an error), how it ended a metric; the user
 * model's calls are no steps of the agent, are recorded and replayed with the case, and a failing user model is an
 * error of its case. Scorers see every turn, and one that grades turn by turn reports the conversation's score.
 */
class SimulatedUserEngineTest {

    @TempDir
    Path output;

    @BeforeEach
    void reset() {
        SimulatedUserTaskFixture.INPUTS.clear();
    }

    private EngineRun simulatedUsers(Path dir) {
        // sim_small answers every case right: its answer is the case's reference, every turn
        return new EngineRun(dir).with(Constants.MODEL_SETTINGS_PREFIX + "sim_small.accuracy", "1");
    }

    @Test
    void theConversationEndsWhenTheUserIsDone() {
        EngineRun run = simulatedUsers(output).execute(SimulatedUserFixture.class);

        run.assertNode("done", "conversation", "passed", "0:Hello, I hope you can help me. Find out whether order "
                + "1234 has shipped. => Your order 1234 has shipped and arrives on Friday. [1 steps]");
        JsonNode metrics = run.line("done", "conversation").get("metrics");
        assertThat(metrics.get("turns").asDouble()).isEqualTo(1.0);
        assertThat(metrics.get("user_done").asDouble()).isEqualTo(1.0);
        assertThat(metrics.get("goal_met").asDouble()).isEqualTo(0.0);
        assertThat(metrics.get("turn_limit").asDouble()).isEqualTo(0.0);
        assertThat(metrics.get("user_cost_usd").asDouble()).as("sim_user's price").isGreaterThan(0.0);
    }

    @Test
    void theConversationEndsWhenTheAnswerMatchesTheStop() {
        EngineRun run = simulatedUsers(output).execute(SimulatedUserFixture.class);

        run.assertNode("stop", "conversation", "passed", "0:Hi. Get a refund for order 77. => Your refund has "
                + "been issued for order 77.");
        JsonNode metrics = run.line("stop", "conversation").get("metrics");
        assertThat(metrics.get("turns").asDouble()).isEqualTo(1.0);
        assertThat(metrics.get("goal_met").asDouble()).isEqualTo(1.0);
        assertThat(metrics.get("user_done").asDouble()).isEqualTo(0.0);
    }

    @Test
    void theTurnLimitIsAResultForTheScorersNotAnError() {
        EngineRun run = simulatedUsers(output).execute(SimulatedUserFixture.class);

        JsonNode line = run.assertNode("limit", "conversation", "failed", "0:I have been waiting long enough. Cancel "
                + "my premium subscription. => I can only help with shipping questions. [1 steps] | 1:");
        assertThat(line.get("error").isNull()).isTrue();
        assertThat(line.get("metrics").get("turns").asDouble()).isEqualTo(3.0);
        assertThat(line.get("metrics").get("turn_limit").asDouble()).isEqualTo(1.0);
        // the user's follow-ups restate the goal; its calls are no steps of the agent
        assertThat(line.get("reason").asText()).contains("| 2:").contains("Cancel my premium subscription.");
        List<String> models = new ArrayList<>();
        line.get("trajectory").forEach(step -> models.add(step.get("model").asText()));
        assertThat(models).containsExactly("sim_small", "sim_small", "sim_small");
        assertThat(line.get("trajectory").get(2).get("sent").get(0).get("role").asText()).isEqualTo("user");
        assertThat(line.get("output").asText()).isEqualTo("I can only help with shipping questions.");
    }

    @Test
    void aFailingUserModelIsAnErrorOfItsCaseAlone() {
        EngineRun run = simulatedUsers(output).execute(SimulatedUserFixture.class);

        run.assertNode("broken", "conversation", "error", "case 'broken': the simulated user (model no_such_user) "
                + "failed to open the conversation: No model client supports the model key 'no_such_user'");
        run.assertNode("done", "conversation", "passed", "");
    }

    @Test
    void theSimulatedUserIsDeterministicPerCaseAndSeed() {
        String first = simulatedUsers(output.resolve("one")).execute(SimulatedUserFixture.class)
                .line("limit", "conversation").get("reason").asText();
        String again = simulatedUsers(output.resolve("two")).execute(SimulatedUserFixture.class)
                .line("limit", "conversation").get("reason").asText();

        assertThat(again).isEqualTo(first);
    }

    @Test
    void theSimulatedAgentsReachTheUsersGoalWithoutAReferenceOnAnySeed() {
        for (String seed : List.of("7", "42")) {
            EngineRun run = new EngineRun(output.resolve(seed)).with(Constants.SEED, seed)
                    .execute(UnreferencedUserFixture.class);

            assertThat(run.lines()).as("seed %s", seed).hasSize(4).allSatisfy(line -> {
                assertThat(line.get("status").asText()).as("%s", line).isEqualTo("passed");
                assertThat(line.get("metrics").get("turns").asDouble()).as("%s", line).isEqualTo(1.0);
                String end = line.get("case_id").asText().equals("stop") ? "goal_met" : "user_done";
                assertThat(line.get("metrics").get(end).asDouble()).as("%s", line).isEqualTo(1.0);
            });
        }
    }

    @Test
    void aTaskIsCalledOncePerTurnWithTheUsersMessageAsItsInput() {
        EngineRun run = new EngineRun(output).execute(SimulatedUserTaskFixture.class);

        assertThat(SimulatedUserTaskFixture.INPUTS).hasSize(2);
        assertThat(SimulatedUserTaskFixture.INPUTS.get(0)).isEqualTo("Hi. Get a refund for order 77.");
        assertThat(SimulatedUserTaskFixture.INPUTS.get(1)).contains("Get a refund for order 77.");
        JsonNode line = run.assertNode("refund_77", "helpful", "passed", "mean of 2 graded turns: turn 1 ✔ 1.00; "
                + "turn 2 ✔ 1.00");
        assertThat(line.get("metrics").get("goal_met").asDouble()).isEqualTo(1.0);
        assertThat(line.get("metrics").get("turns").asDouble()).isEqualTo(2.0);
        assertThat(line.get("output").asText()).isEqualTo("Your refund is issued for order 77.");
        assertThat(line.get("trajectory")).hasSize(2);
        assertThat(line.get("trajectory").get(1).get("turn").asInt()).isEqualTo(1);
    }

    @Test
    void userTurnsAreRecordedWithTheCaseAndReplayWithoutTheUserModel() throws Exception {
        Path recordings = output.resolve("recordings");
        EngineRun recorded = simulatedUsers(output.resolve("record")).with(Constants.CACHE_MODE, "record")
                .with(Constants.CACHE_DIR, recordings.toString()).execute(SimulatedUserFixture.class);
        assertThat(recordings.resolve("sim_user").resolve("limit.json")).exists();
        assertThat(Files.readString(recordings.resolve("sim_user").resolve("limit.json")))
                .contains(dev.agentarena.junit.engine.models.user.UserPrompt.OPENING);

        // replay: the user is played from the recording, even with a user model that does not exist
        EngineRun replayed = simulatedUsers(output.resolve("replay")).with(Constants.CACHE_MODE, "replay")
                .with(Constants.CACHE_DIR, recordings.toString()).execute(SimulatedUserFixture.class);

        for (String caseId : List.of("done", "stop", "limit")) {
            JsonNode was = recorded.line(caseId, "conversation");
            JsonNode is = replayed.line(caseId, "conversation");
            assertThat(is.get("reason").asText()).as(caseId).isEqualTo(was.get("reason").asText());
            assertThat(is.get("cached").asBoolean()).as(caseId).isTrue();
            assertThat(is.get("metrics").get("user_cost_usd").asDouble()).as("replayed calls are free").isZero();
        }
    }

    @Test
    void aPerTurnScorerGetsTheMeanOfTheTurnsFailedIfAnyTurnFailed() {
        EngineRun run = new EngineRun(output).execute(PerTurnScoringFixture.class);

        JsonNode line = run.assertNode("three_turns", "mentionsRefund", "failed", "mean of 3 graded turns, failed as "
                + "a turn failed: turn 1 ✘ 0.00 (no refund); turn 2 ✔ 1.00 (mentions it); turn 3 ✘ 0.00 (no refund)");
        assertThat(line.get("score").asDouble()).isCloseTo(1.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
        JsonNode turns = line.get("detail").get("turn_scores");
        assertThat(turns).hasSize(3);
        assertThat(turns.get(1).get("turn").asInt()).isEqualTo(1);
        assertThat(turns.get(1).get("score").asDouble()).isEqualTo(1.0);
        assertThat(turns.get(1).get("passed").asBoolean()).isTrue();
        assertThat(turns.get(1).get("reason").asText()).isEqualTo("mentions it");
        assertThat(run.reportEntry("three_turns", "mentionsRefund").get("turn_scores"))
                .isEqualTo("1: 0.00 ✘, 2: 1.00 ✔, 3: 0.00 ✘");
        // the input a per-turn scorer sees is the turn's user message, its output the turn's answer
        run.assertNode("three_turns", "echoes", "passed", "mean of 3 graded turns: turn 1 ✔ 1.00");
        // turns a scorer finds not applicable count for neither
        JsonNode last = run.assertNode("three_turns", "lastOnly", "passed", "mean of 1 graded turn: turn 1 n/a; "
                + "turn 2 n/a; turn 3 ✔ 0.75");
        assertThat(last.get("score").asDouble()).isEqualTo(0.75);
        // a scorer that grades the whole conversation sees every turn and the last answer
        run.assertNode("three_turns", "whole", "passed", "3 turns, output turn 3: thanks");
        // one test per case and scorer: no node per turn
        assertThat(run.lines().stream().filter(l -> l.get("case_id").asText().equals("three_turns")).count())
                .isEqualTo(5);
    }

    @Test
    void aCatalogueScorerGradesTurnByTurnThroughItsOptionAndASingleTurnCaseOnce() {
        EngineRun run = new EngineRun(output).execute(PerTurnScoringFixture.class);

        JsonNode contains = run.assertNode("three_turns", "contains", "passed", "mean of 3 graded turns");
        assertThat(contains.get("detail").get("turn_scores")).hasSize(3);
        JsonNode single = run.assertNode("single", "mentionsRefund", "passed", "");
        assertThat(single.has("detail") && single.get("detail").has("turn_scores")).isFalse();
        assertThat(single.get("reason").asText()).doesNotContain("turn");
    }
}
