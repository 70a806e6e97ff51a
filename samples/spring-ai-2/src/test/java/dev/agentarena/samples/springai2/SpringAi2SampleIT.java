package dev.agentarena.samples.springai2;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestEngine;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.boot.SpringBootVersion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Checks what the Surefire run of this sample left behind (Surefire ignores the evals' low scores), on Spring Boot
 * 4.0 with Spring AI 2.0: every case of every eval was evaluated, none is an error, and the agents' tools ran through
 * the engine: the app's routed {@code ChatClient}, the engine's {@code ChatClient} with tools over the simulated
 * models and over the app's own {@code ChatClient} ({@code @EvalModel}), and Spring AI's evaluators as scorers.
 */
class SpringAi2SampleIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<JsonNode> results(String eval) throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get("target/arena/results.jsonl"))) {
            JsonNode node = JSON.readTree(line);
            if (node.get("eval").asText().equals(eval)) {
                lines.add(node);
            }
        }
        return lines;
    }

    private static String id(JsonNode line) {
        return line.get("model").asText() + "/" + line.get("case_id").asText() + "/" + line.get("scorer").asText();
    }

    /** How many tool executions the case's trajectory holds. */
    private static long toolSteps(JsonNode line) {
        long steps = 0;
        for (JsonNode step : line.path("trajectory")) {
            steps += step.get("type").asText().equals("tool") ? 1 : 0;
        }
        return steps;
    }

    @Test
    void runsOnSpringBoot4SpringAi2AndJUnit6() {
        assertThat(SpringBootVersion.getVersion()).startsWith(System.getProperty("expected.spring-boot"));
        assertThat(ChatModel.class.getPackage().getImplementationVersion())
                .startsWith(System.getProperty("expected.spring-ai"));
        assertThat(TestEngine.class.getPackage().getImplementationVersion())
                .startsWith(System.getProperty("expected.junit-platform"));
    }

    @Test
    void theAppsRoutedAgentRanItsToolsThroughTheEvaluatedModels() throws IOException {
        List<JsonNode> lines = results("spring-ai-2-routed-agent");

        // 8 cases, 2 models, 5 scores (contains, trajectory, tool_precision_recall's precision, recall and f1)
        assertThat(lines).extracting(SpringAi2SampleIT::id).hasSize(80).doesNotHaveDuplicates();
        assertThat(lines).allSatisfy(line -> assertThat(line.get("status").asText()).as(id(line))
                .isIn("passed", "failed", "not_applicable"));
        assertThat(lines).filteredOn(line -> toolSteps(line) > 0).extracting(line -> line.get("model").asText())
                .contains("sim_small", "sim_large");
        assertThat(lines).filteredOn(line -> line.get("scorer").asText().equals("trajectory"))
                .filteredOn(line -> line.get("passed").asBoolean()).hasSizeGreaterThan(4);
    }

    @Test
    void theEnginesChatClientRanTheToolLoopOnSpringAi2() throws IOException {
        List<JsonNode> lines = results("spring-ai-support-agent");

        // 8 cases, 2 models, 6 scores (as above, and trajectory_efficiency)
        assertThat(lines).extracting(SpringAi2SampleIT::id).hasSize(96).doesNotHaveDuplicates();
        assertThat(lines).allSatisfy(line -> assertThat(line.get("status").asText()).as(id(line))
                .isIn("passed", "failed", "not_applicable"));
        assertThat(lines).filteredOn(line -> toolSteps(line) > 0).extracting(line -> line.get("model").asText())
                .contains("sim_small", "sim_large");
    }

    @Test
    void theAppsOwnChatClientAnsweredWithToolCallsAsAModelOfTheEval() throws IOException {
        List<JsonNode> desk = results("spring-ai-2-desk-client").stream()
                .filter(line -> line.get("model").asText().equals("desk-client")).toList();

        // 4 cases, 2 scorers: the rule-based model looks every order up and answers with what the tool said
        assertThat(desk).extracting(SpringAi2SampleIT::id).hasSize(8);
        assertThat(desk).allSatisfy(line -> {
            assertThat(line.get("status").asText()).as(id(line)).isEqualTo("passed");
            assertThat(toolSteps(line)).as(id(line)).isEqualTo(1);
        });
        assertThat(desk).filteredOn(line -> !line.get("case_id").asText().equals("unknown_order"))
                .allSatisfy(line -> assertThat(line.get("output").asText()).as(id(line)).contains("shipped on 2 May"));
    }

    @Test
    void aToolThatThrewInTheClientsLoopIsATraceableToolErrorNotAnErrorOfTheCase() throws IOException {
        List<JsonNode> unknown = results("spring-ai-2-desk-client").stream()
                .filter(line -> line.get("case_id").asText().equals("unknown_order")).toList();

        // on Spring AI 2 the ChatClient runs the tools; the engine's client marks the failed call all the same
        assertThat(unknown).extracting(SpringAi2SampleIT::id).hasSize(4);
        assertThat(unknown).allSatisfy(line -> {
            assertThat(line.get("status").asText()).as(id(line)).isIn("passed", "failed");
            // sim_large tries the lookup once more before it answers
            assertThat(line.get("metrics").get("tool_errors").asDouble()).as(id(line)).isPositive();
            JsonNode tool = line.get("trajectory").findParents("type").stream()
                    .filter(step -> step.get("type").asText().equals("tool")).findFirst().orElseThrow();
            assertThat(tool.get("error").asText()).as(id(line)).contains("Order 404 does not exist");
        });
    }

    @Test
    void springAisEvaluatorsGradedTheAnswersThroughTheRunsJudge() throws IOException {
        List<JsonNode> lines = results("spring-ai-support");

        // 4 cases, 2 models, 3 scorers (the two evaluators by name, the team's own Evaluator)
        assertThat(lines).extracting(SpringAi2SampleIT::id).hasSize(24).doesNotHaveDuplicates();
        assertThat(lines).allSatisfy(line -> assertThat(line.get("status").asText()).as(id(line))
                .isIn("passed", "failed", "not_applicable"));
        assertThat(lines).filteredOn(line -> line.get("scorer").asText().startsWith("spring_ai_"))
                .hasSize(16)
                .filteredOn(line -> line.get("reason").asText().startsWith("judge sim_judge answered"))
                .hasSizeGreaterThan(8);
    }
}
