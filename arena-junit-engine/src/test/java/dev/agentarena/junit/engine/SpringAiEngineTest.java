package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.integration.Capitals;
import dev.agentarena.junit.engine.fixtures.integration.SpringBeanModelFixture;
import dev.agentarena.junit.engine.fixtures.integration.SpringAiEvaluatorFixture;
import dev.agentarena.junit.engine.fixtures.integration.SpringAiModelFixture;
import dev.agentarena.junit.engine.fixtures.integration.SpringAiTaskFixture;
import dev.agentarena.junit.engine.integration.LoopbackOpenAi;

/**
 * Spring AI end to end: its real OpenAI client against a loopback server as a {@code ChatModel} and inside a
 * {@code ChatClient} ({@code @EvalModel}); the {@code ChatClient} the engine hands to a task; its evaluators as
 * scorers, by name and returned from {@code @Scorer} methods, asking the run's judge.
 */
class SpringAiEngineTest {

    @TempDir
    Path output;

    private LoopbackOpenAi server;

    @BeforeEach
    void start() throws IOException {
        server = LoopbackOpenAi.answering(Capitals::answer);
        SpringAiModelFixture.root = server.root();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aSpringAiChatModelAndChatClientAreModelsOfTheEvalWithTheirUsage() {
        EngineRun run = new EngineRun(output).execute(SpringAiModelFixture.class);

        for (String model : List.of("spring-client", "spring-model")) {
            List<JsonNode> lines = linesOf(run, model);
            assertThat(lines).as(model).hasSize(3).allSatisfy(line -> {
                assertThat(line.get("tokens_in").asLong()).isEqualTo(20);
                assertThat(line.get("tokens_out").asLong()).isEqualTo(5);
                assertThat(line.get("cost_usd").asDouble()).isCloseTo((20 * 0.15 + 5 * 0.60) / 1e6, within(1e-12));
                assertThat(line.get("latency_ms").isNumber()).isTrue();
            });
            assertThat(lines).extracting(l -> l.get("case_id").asText() + " " + l.get("status").asText())
                    .containsExactlyInAnyOrder("france passed", "japan passed", "kenya failed");
        }
        // the client's own system prompt went with its requests, the model's requests had none
        List<JsonNode> withSystem = server.requests.stream()
                .filter(r -> r.get("messages").get(0).get("role").asText().equals("system")).collect(Collectors.toList());
        assertThat(withSystem).hasSize(3).allSatisfy(r -> assertThat(r.get("messages").get(0).get("content").asText())
                .isEqualTo("Answer briefly."));
        assertThat(server.requests).hasSize(6).allSatisfy(r -> assertThat(r.get("model").asText())
                .isEqualTo("gpt-4o-mini"));
    }

    @Test
    void anEvalModelFieldHoldsTheAppsChatModelBeanInjectedBySpring() {
        EngineRun run = new EngineRun(output).execute(SpringBeanModelFixture.class);

        List<JsonNode> lines = linesOf(run, "app-model");
        assertThat(lines).extracting(l -> l.get("case_id").asText() + " " + l.get("status").asText())
                .containsExactlyInAnyOrder("france passed", "japan passed", "kenya failed");
        assertThat(lines).allSatisfy(line -> assertThat(line.get("tokens_in").asLong()).isEqualTo(20));
        assertThat(server.requests).hasSize(3);
    }

    @Test
    void theTeamsSpringAiCodeRunsOnTheEnginesChatClientAgainstEachModel() {
        EngineRun run = new EngineRun(output).with("arena.models.openai:loop.base-url", server.baseUrl())
                .execute(SpringAiTaskFixture.class);

        assertThat(linesOf(run, "openai:loop")).extracting(l -> l.get("case_id").asText() + " "
                + l.get("status").asText()).containsExactlyInAnyOrder("france passed", "japan passed", "kenya failed");
        assertThat(server.requests).hasSize(3).allSatisfy(request -> {
            assertThat(request.get("messages").get(0).get("content").asText())
                    .isEqualTo("Answer with the capital city only.");
            assertThat(request.get("messages").get(1).get("role").asText()).isEqualTo("user");
        });
        assertThat(linesOf(run, "sim_small")).hasSize(3).allSatisfy(line -> {
            assertThat(line.get("status").asText()).isIn("passed", "failed");
            assertThat(line.get("cost_usd").asDouble()).isPositive();
        });
    }

    @Test
    void evaluatorsScoreByNameAndFromScorerMethodsAskingTheRunsJudge() throws IOException {
        server.close();
        server = LoopbackOpenAi.answering(request -> {
            String prompt = LoopbackOpenAi.lastUserText(request);
            return LoopbackOpenAi.text(prompt.contains("Mombasa") ? "no" : prompt.contains("Tokyo") ? "maybe" : "YES",
                    "judge-model", 40, 1);
        });

        EngineRun run = new EngineRun(output).with(Constants.JUDGE_MODEL, "openai:judge")
                .with("arena.models.openai:judge.base-url", server.baseUrl())
                .with("arena.models.openai:judge.price.input-per-million", "1")
                .with("arena.models.openai:judge.price.output-per-million", "1")
                .execute(SpringAiEvaluatorFixture.class);

        JsonNode relevant = run.assertNode("france", "spring_ai_relevancy", "passed",
                "judge openai:judge answered yes to RelevancyEvaluator");
        assertThat(relevant.at("/metrics/judge_tokens_in").asDouble()).isEqualTo(40);
        assertThat(relevant.at("/metrics/judge_cost_usd").asDouble()).isCloseTo(41 / 1e6, within(1e-12));
        run.assertNode("kenya", "spring_ai_relevancy", "failed", "judge openai:judge answered no to RelevancyEvaluator");
        run.assertNode("japan", "spring_ai_relevancy", "not_applicable",
                "judge abstained: RelevancyEvaluator expects yes or no, but judge openai:judge answered \"maybe\"");
        run.assertNode("france", "spring_ai_fact_checking", "passed", "answered yes to FactCheckingEvaluator");
        run.assertNode("kenya", "spring_ai_fact_checking", "failed", "answered no to FactCheckingEvaluator");

        // an EvaluationResponse returned by a @Scorer method, from an evaluator built on the judge's builder
        run.assertNode("france", "factChecked", "passed", "EvaluationResponse: pass");
        run.assertNode("kenya", "factChecked", "failed", "EvaluationResponse: fail");
        // and one made by hand: its score, verdict, feedback and numeric metadata
        JsonNode graded = run.assertNode("kenya", "graded", "passed", "long enough");
        assertThat(graded.get("score").asDouble()).isEqualTo(0.75);
        assertThat(graded.at("/metrics/letters").asDouble()).isEqualTo(7);
        JsonNode short_ = run.assertNode("france", "graded", "failed", "EvaluationResponse: fail");
        assertThat(short_.get("score").asDouble()).isEqualTo(0.5);

        // what the judge was asked: the evaluator's own prompt, alone, at temperature 0
        JsonNode relevancy = server.requests.stream().filter(r -> LoopbackOpenAi.lastUserText(r).contains("Either YES "
                + "or NO") && LoopbackOpenAi.lastUserText(r).contains("France")).findFirst().orElseThrow();
        assertThat(relevancy.get("messages")).hasSize(1);
        assertThat(relevancy.get("temperature").asDouble()).isZero();
        assertThat(LoopbackOpenAi.lastUserText(relevancy)).containsPattern("Query:\\s+What is the capital of France\\?")
                .containsPattern("Response:\\s+Paris\\s+Context:\\s+Paris");
    }

    @Test
    void evaluatorsRunOfflineOnTheSimulatedJudge() {
        EngineRun run = new EngineRun(output).execute(SpringAiEvaluatorFixture.class);

        List<JsonNode> relevancy = run.lines().stream().filter(l -> l.get("scorer").asText()
                .equals("spring_ai_relevancy")).collect(Collectors.toList());
        assertThat(relevancy).hasSize(3).allSatisfy(line -> {
            assertThat(line.get("status").asText()).isIn("passed", "failed", "not_applicable");
            assertThat(line.at("/metrics/judge_tokens_in").asDouble()).isPositive();
        });
        // sim_judge reads the evaluator's sections back: Paris is in line with the context Paris, Mombasa is not
        assertThat(run.line("france", "spring_ai_relevancy").get("reason").asText())
                .isEqualTo("judge sim_judge answered yes to RelevancyEvaluator");
        assertThat(run.line("kenya", "spring_ai_fact_checking").get("reason").asText())
                .isEqualTo("judge sim_judge answered no to FactCheckingEvaluator");
    }

    private static List<JsonNode> linesOf(EngineRun run, String model) {
        return run.lines().stream().filter(l -> l.get("model").asText().equals(model)).collect(Collectors.toList());
    }
}
