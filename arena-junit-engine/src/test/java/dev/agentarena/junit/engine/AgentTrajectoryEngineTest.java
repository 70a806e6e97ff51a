package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.agents.HandWrittenLoopFixture;
import dev.agentarena.junit.engine.fixtures.agents.ScriptedConversationFixture;

/**
 * The engine writes down what an agent did, whatever drives it: here a loop written by hand over the {@code Model}
 * handle. Every call is a model step and every tool result a tool step; the case's fixed tool results stand in for
 * the app's tools; a runaway loop ends at the step limit as a low score of its case alone.
 */
class AgentTrajectoryEngineTest {

    @TempDir
    Path output;

    @BeforeEach
    void resetCounters() {
        HandWrittenLoopFixture.EXECUTIONS.values().forEach(count -> count.set(0));
    }

    @Test
    void everyModelCallAndToolExecutionIsAStepInOrderAndScorersSeeThem() {
        EngineRun run = new EngineRun(output).with(Constants.AGENT_MAX_STEPS, "6").execute(HandWrittenLoopFixture.class);

        run.assertNode("refund_42", "tools", "passed", "lookup_order > refund in 3 model calls");
        JsonNode line = run.line("refund_42", "tools");
        assertThat(line.get("metrics").get("steps").asDouble()).isEqualTo(3.0);
        assertThat(line.get("metrics").get("tool_errors").asDouble()).isEqualTo(0.0);
        assertThat(line.get("tokens_in").asLong()).as("three calls' tokens").isEqualTo(90);
        List<String> shape = new ArrayList<>();
        for (JsonNode step : line.get("trajectory")) {
            shape.add(step.get("type").asText() + ":" + (step.get("type").asText().equals("tool")
                    ? step.get("name").asText() + "=" + step.get("result").asText()
                    : step.get("tool_calls").size() + " calls"));
        }
        assertThat(shape).containsExactly("model:1 calls", "tool:lookup_order={\"status\":\"late\"}", "model:1 calls",
                "tool:refund=refunded 42", "model:0 calls");
        JsonNode refund = line.get("trajectory").get(3);
        assertThat(refund.get("id").asText()).isEqualTo("call_refund");
        assertThat(refund.get("arguments").get("reason").asText()).isEqualTo("late");
        JsonNode secondCall = line.get("trajectory").get(2);
        assertThat(secondCall.get("sent")).as("only what is new since the model last spoke").hasSize(1);
        assertThat(secondCall.get("sent").get(0).get("role").asText()).isEqualTo("tool");
        assertThat(secondCall.get("sent").get(0).get("tool_call_id").asText()).isEqualTo("call_lookup");
        assertThat(run.reportEntry("refund_42", "tools").get("trajectory"))
                .contains("1. model scripted asks lookup_order {\"id\":\"42\"}")
                .contains("4. tool refund {").contains("} → refunded 42").contains("5. model scripted answers Done");
    }

    @Test
    void aCasesFixedToolResultsStandInForTheAppsTools() {
        EngineRun run = new EngineRun(output).with(Constants.AGENT_MAX_STEPS, "6").execute(HandWrittenLoopFixture.class);

        run.assertNode("fixed_7", "tools", "passed", "lookup_order(fixed) > refund(fixed) in 3 model calls");
        assertThat(run.line("fixed_7", "tools").get("output").asText()).isEqualTo("Done: refunded 7");
        // refund_42 and broken_13 ran lookup_order, refund_42 ran refund, loop_5 its six lookups; fixed_7 none
        assertThat(HandWrittenLoopFixture.EXECUTIONS.get("refund").get()).isEqualTo(1);
        assertThat(HandWrittenLoopFixture.EXECUTIONS.get("lookup_order").get()).isEqualTo(2 + 6);
    }

    @Test
    void aLookupTheCaseFixesStaysInTheConversationTheTaskSendsNext() {
        EngineRun run = new EngineRun(output).with(Constants.AGENT_MAX_STEPS, "6")
                .execute(HandWrittenLoopFixture.HalfFixed.class);

        // the model is sent the fixed lookup with the refund's result, so it answers instead of refunding again
        run.assertNode("half_fixed_8", "tools", "passed", "lookup_order(fixed) > refund in 3 model calls");
        assertThat(run.line("half_fixed_8", "tools").get("output").asText()).isEqualTo("Done: refunded 8");
        assertThat(HandWrittenLoopFixture.EXECUTIONS.get("refund").get()).isEqualTo(1);
        assertThat(HandWrittenLoopFixture.EXECUTIONS.get("lookup_order").get()).isZero();
    }

    @Test
    void aFailingToolIsAStepOfTheTrajectoryNotAnEngineError() {
        EngineRun run = new EngineRun(output).with(Constants.AGENT_MAX_STEPS, "6").execute(HandWrittenLoopFixture.class);

        run.assertNode("broken_13", "tools", "failed", "lookup_order(failed) in 2 model calls");
        JsonNode line = run.line("broken_13", "tools");
        assertThat(line.get("metrics").get("tool_errors").asDouble()).isEqualTo(1.0);
        assertThat(line.get("trajectory").get(1).get("error").asText()).isEqualTo("order 13 is locked");
        assertThat(line.get("output").asText()).startsWith("Sorry");
    }

    @Test
    void aRunawayLoopEndsAtTheStepLimitAsALowScoreOfItsCaseAlone() {
        EngineRun run = new EngineRun(output).with(Constants.AGENT_MAX_STEPS, "6").execute(HandWrittenLoopFixture.class);

        JsonNode line = run.assertNode("loop_5", "tools", "failed",
                "the agent made 6 calls to scripted without finishing (arena.agent.max-steps = 6; tool calls "
                        + "lookup_order ×6)");
        assertThat(line.get("reason").asText()).endsWith("Scored on no answer and the trajectory so far: "
                + "lookup_order > lookup_order > lookup_order > lookup_order > lookup_order > lookup_order in 6 model "
                + "calls");
        assertThat(line.get("score").asDouble()).isEqualTo(0.0);
        assertThat(line.get("error").isNull()).as("not an error").isTrue();
        assertThat(line.get("output").asText()).as("no answer").isEmpty();
        assertThat(line.get("metrics").get("step_limit").asDouble()).isEqualTo(1.0);
        assertThat(line.get("metrics").get("steps").asDouble()).isEqualTo(6.0);
        assertThat(line.get("trajectory")).as("the loop is there to see: six calls, six lookups the task ran").hasSize(6 + 6);
        assertThat(run.line("refund_42", "tools").get("metrics").get("step_limit").asDouble())
                .as("an agent that finished says so too, so the leaderboard's mean is a rate").isEqualTo(0.0);
        assertThat(run.lines()).as("every case has its line").hasSize(4);
    }

    @Test
    void aHangingToolIsHeldByTheTasksTimeLimit() {
        EngineRun run = new EngineRun(output).execute(HandWrittenLoopFixture.HangingTool.class);

        run.assertNode("hang_9", "tools", "error", "3 s");
        run.assertNode("refund_42", "tools", "passed", "lookup_order > refund");
    }

    @Test
    void aHugeDegenerateToolResultIsCutInTheResultsAndKeptWholeBesideThem() throws Exception {
        EngineRun run = new EngineRun(output).execute(HandWrittenLoopFixture.HostileTool.class);

        JsonNode line = run.assertNode("huge_77", "tools", "passed", "lookup_order > refund in 3 model calls");
        String shown = line.get("trajectory").get(1).get("result").asText();
        assertThat(shown).hasSizeLessThan(5_000).contains("[cut at 4,000 of 350,000 characters; the whole text is in "
                + "texts/hostile-tool/scripted/");
        String file = line.get("trajectory_file").asText();
        assertThat(file).endsWith("huge_77/trajectory.json");
        JsonNode whole = new com.fasterxml.jackson.databind.ObjectMapper().readTree(output.resolve(file).toFile());
        assertThat(whole.get(1).get("result").asText()).isEqualTo(HandWrittenLoopFixture.HostileTool.HUGE);
        assertThat(run.reportEntry("huge_77", "tools").get("trajectory")).as("one short line per step, made safe")
                .hasSizeLessThan(2_000).doesNotContain("\u0000", "\u001b");
    }

    @Test
    void allureShowsOneStepPerModelCallAndToolExecution() {
        InMemoryAllure allure = new InMemoryAllure();
        allure.around(() -> new EngineRun(output).with(Constants.AGENT_MAX_STEPS, "6")
                .execute(HandWrittenLoopFixture.class));

        assertThat(allure.stepNames()).containsSubsequence("1. model scripted: calls lookup_order",
                "2. tool lookup_order: ran", "3. model scripted: calls refund", "4. tool refund: ran",
                "5. model scripted: answers");
        assertThat(allure.stepNames()).contains("2. tool lookup_order: result fixed by the case",
                "2. tool lookup_order: failed");
        assertThat(allure.attachments()).anySatisfy(text -> assertThat(text).contains("\"tool_call_id\" : \"call_lookup\""));
    }

    @Test
    void aScriptedConversationSendsEachTurnAfterTheAnswerToTheOneBefore() {
        EngineRun run = new EngineRun(output).execute(ScriptedConversationFixture.class);

        run.assertNode("three_turns", "turns", "passed",
                "0=turn 1: hi | 1=turn 2: refund order 42 | 2=turn 3: thanks");
        JsonNode line = run.line("three_turns", "turns");
        assertThat(line.get("metrics").get("turns").asDouble()).isEqualTo(3.0);
        assertThat(line.get("trajectory")).hasSize(3);
        assertThat(line.get("trajectory").get(2).get("sent").get(0).get("content").asText()).isEqualTo("thanks");
    }

    @Test
    void aSingleCallCaseKeepsItsResultLineAsItWas() throws Exception {
        EngineRun run = new EngineRun(output).execute(dev.agentarena.junit.engine.fixtures.TriageFixture.class);

        assertThat(run.lines()).isNotEmpty().allSatisfy(line -> {
            assertThat(line.has("trajectory")).isFalse();
            assertThat(line.get("metrics").has("steps")).isFalse();
        });
        assertThat(Files.exists(output.resolve("texts"))).isFalse();
    }
}
