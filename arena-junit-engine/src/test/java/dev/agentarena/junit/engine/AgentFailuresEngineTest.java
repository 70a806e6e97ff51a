package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.agents.LoopingAgentFixture;
import dev.agentarena.junit.engine.fixtures.hostile.RepeatedToolIdsFixture;
import dev.agentarena.junit.engine.fixtures.agents.NullAnswerFixture;
import dev.agentarena.junit.engine.fixtures.integration.LangChain4jAgentFailuresFixture;
import dev.agentarena.junit.engine.fixtures.integration.SpringAiAgentFailuresFixture;
import dev.agentarena.junit.engine.integration.LoopbackOpenAi;

/**
 * An agent's own failure is a low score of its case, not an error: the step limit, a tool call its tools cannot take
 * (a missing or mistyped argument, a tool that does not exist), an answer that does not parse as the type asked for,
 * on LangChain4j and Spring AI alike. The case is scored
 * on no answer and the trajectory so far, and counts in accuracy; the team's own code failing stays an error.
 */
class AgentFailuresEngineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path output;

    @Test
    void aModelThatLoopsOnOneCaseOfFiveIsScoredOverAllFive() throws IOException {
        EngineRun run = new EngineRun(output).with(Constants.AGENT_MAX_STEPS, "6")
                .with("arena.models.sim_small.accuracy", "1")
                .with("arena.models.sim_small.loop-rate", "1")
                .with("arena.models.sim_small.wrong-tool-rate", "0")
                .with("arena.models.sim_small.wrong-argument-rate", "0")
                .with("arena.models.sim_small.missing-argument-rate", "0")
                .with("arena.models.sim_small.extra-call-rate", "0")
                .execute(LoopingAgentFixture.class);

        JsonNode loop = run.assertNode("lookup_5", "trajectory_efficiency", "failed", "the agent made 6 calls to "
                + "sim_small without finishing (arena.agent.max-steps = 6; tool calls lookup_order ×6)");
        assertThat(loop.get("reason").asText()).contains("Scored on no answer and the trajectory so far: loop: "
                + "'lookup_order{\"orderId\":5}' called 6 times in a row");
        assertThat(loop.get("score").asDouble()).isEqualTo(0.0);
        assertThat(loop.get("metrics").get("step_limit").asDouble()).isEqualTo(1.0);
        run.assertNode("lookup_5", "contains", "failed", "Scored on no answer");
        // the hand count: four cases answered right by both scorers (1 each), the looping one 0 on both
        Map<String, Double> perCase = new LinkedHashMap<>();
        run.lines().forEach(line -> perCase.merge(line.get("case_id").asText(), line.get("score").asDouble() / 2,
                Double::sum));
        assertThat(perCase).containsOnlyKeys("answer_1", "answer_2", "answer_3", "answer_4", "lookup_5")
                .containsEntry("lookup_5", 0.0).containsEntry("answer_1", 1.0);
        JsonNode model = JSON.readTree(output.resolve("leaderboard.json").toFile()).get("evals").get(0).get("models")
                .get(0);
        assertThat(model.get("accuracy").get("n").asInt()).as("the looping case counts").isEqualTo(5);
        assertThat(model.get("accuracy").get("value").asDouble()).isCloseTo(4.0 / 5, within(1e-9))
                .isCloseTo(perCase.values().stream().mapToDouble(Double::doubleValue).sum() / 5, within(1e-9));
        assertThat(model.get("errors").asInt()).isZero();
    }

    @Test
    void aToolCallNamingNoFunctionOverHttpIsALowScoreNotAnError() throws IOException {
        try (LoopbackOpenAi server = LoopbackOpenAi.answering(request -> new LoopbackOpenAi.Reply(200,
                "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,"
                        + "\"tool_calls\":[{\"id\":\"call_7\",\"type\":\"function\",\"function\":"
                        + "{\"arguments\":\"{}\"}}]}}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}"))) {
            EngineRun run = new EngineRun(output).with("arena.models.openai:local.base-url", server.baseUrl())
                    .execute(RepeatedToolIdsFixture.OverHttp.class);

            JsonNode line = run.lines().stream().filter(l -> l.get("model").asText().equals("openai:local"))
                    .findFirst().orElseThrow();
            assertThat(line.get("status").asText()).isEqualTo("failed");
            assertThat(line.get("score").asDouble()).isZero();
            assertThat(line.get("reason").asText()).contains("tool call 1 of the answer (id call_7) names no "
                    + "function", "Scored on no answer and the trajectory so far");
            assertThat(server.requests).as("not retried").hasSize(1);
        }
    }

    @Test
    void aLangChain4jToolCallTheToolsRefuseIsALowScoreAndTheAppsOwnBugAnError() {
        EngineRun run = new EngineRun(output).execute(LangChain4jAgentFailuresFixture.class);

        run.assertNode("refund", "contains", "passed", "contains 'refunded 42'");
        run.assertNode("missing_argument", "contains", "failed", "The model called a tool with arguments it cannot "
                + "take (LangChain4j: Required parameter \"orderId\" of tool \"refund\" is missing). Scored on no "
                + "answer and the trajectory so far: missing 'refunded'");
        run.assertNode("wrong_type", "contains", "failed", "(LangChain4j: Argument \"orderId\" is not convertable to "
                + "int, got java.lang.String: <forty-two>)");
        run.assertNode("no_such_tool", "contains", "failed", "The model called a tool the AI service does not have "
                + "(LangChain4j: The LLM is trying to execute the 'cancelOrder' tool");
        run.assertNode("unparseable", "contains", "failed", "The model's final answer does not parse as the AI "
                + "service's return type (LangChain4j: ");
        assertThat(run.line("empty_answer", "contains").get("status").asText()).as("an empty answer").isEqualTo("failed");
        assertLowScoresKeepTheirTrajectory(run);
        run.assertNode("app_bug", "contains", "error", "the app's own bug");
    }

    @Test
    void aSpringAiToolCallTheToolsRefuseIsALowScoreAndTheAppsOwnBugAnError() {
        EngineRun run = new EngineRun(output).execute(SpringAiAgentFailuresFixture.class);

        run.assertNode("refund", "contains", "passed", "contains 'refunded 42'");
        run.assertNode("missing_argument", "contains", "failed", "The model called tool 'refund' with arguments it "
                + "cannot take: no value for the required parameter orderId (sent {}). Scored on no answer and the "
                + "trajectory so far: missing 'refunded'");
        // Spring AI itself sends a value it cannot convert back to the model as the tool's error, and the agent goes on
        JsonNode wrongType = run.assertNode("wrong_type", "contains", "failed", "missing 'refunded'");
        assertThat(wrongType.get("metrics").get("tool_errors").asDouble()).isEqualTo(1.0);
        run.assertNode("no_such_tool", "contains", "failed", "The model called tool 'cancelOrder', which the "
                + "ChatClient does not offer (its tools: refund).");
        run.assertNode("unparseable", "contains", "failed", "The model's final answer does not parse as the type "
                + "the ChatClient asked for (Spring AI: ");
        assertThat(run.line("empty_answer", "contains").get("status").asText()).as("an empty answer").isEqualTo("failed");
        assertLowScoresKeepTheirTrajectory(run);
        run.assertNode("app_bug", "contains", "error", "the app's own bug");
    }

    @Test
    void aNullReturnedForAnEmptyAnswerIsTheModelsFailureAndForAnyOtherTheTasks() {
        EngineRun run = new EngineRun(output).execute(NullAnswerFixture.class);

        run.assertNode("empty", "contains", "failed", "case 'empty': the model's final answer was empty, and @Task "
                + "answer() returned null. Scored on no answer and the trajectory so far: missing 'something'");
        run.assertNode("dropped", "contains", "error", "@Task answer() returned null for case 'dropped'");
    }

    /** The cases the model failed: no answer, not an error, the model's call there to see, the step limit not hit. */
    private static void assertLowScoresKeepTheirTrajectory(EngineRun run) {
        for (String caseId : List.of("missing_argument", "no_such_tool")) {
            JsonNode line = run.line(caseId, "contains");
            assertThat(line.get("error").isNull()).as(caseId).isTrue();
            assertThat(line.get("output").asText()).as(caseId).isEmpty();
            assertThat(line.get("trajectory")).as(caseId).hasSize(1);
            assertThat(line.get("metrics").get("step_limit").asDouble()).as(caseId).isZero();
        }
    }
}
