package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.integration.Capitals;
import dev.agentarena.junit.engine.fixtures.integration.LangChain4jModelFixture;
import dev.agentarena.junit.engine.fixtures.integration.LangChain4jTaskFixture;
import dev.agentarena.junit.engine.fixtures.integration.LangChain4jToolsFixture;
import dev.agentarena.junit.engine.integration.LoopbackOpenAi;

/**
 * LangChain4j end to end: its real OpenAI client against a loopback server, as a model of an eval ({@code @EvalModel})
 * and beneath the AI services a task builds on the engine's {@code ChatModel}; timed, counted, priced, recorded and
 * replayed like every model.
 */
class LangChain4jEngineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path output;

    private LoopbackOpenAi server;

    @BeforeEach
    void start() throws IOException {
        server = LoopbackOpenAi.answering(Capitals::answer);
        LangChain4jModelFixture.baseUrl = server.baseUrl();
        LangChain4jModelFixture.BUILT.set(0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aLangChain4jChatModelIsAModelOfTheEvalWithItsUsageInResultsAndLeaderboard() throws IOException {
        EngineRun run = new EngineRun(output).execute(LangChain4jModelFixture.class);

        List<JsonNode> bot = linesOf(run, "support-bot");
        assertThat(bot).hasSize(3).allSatisfy(line -> {
            assertThat(line.get("tokens_in").asLong()).isEqualTo(20);
            assertThat(line.get("tokens_out").asLong()).isEqualTo(5);
            // no price configured for the key: the built-in price of the model the response reports (gpt-4o-mini)
            assertThat(line.get("cost_usd").asDouble()).isCloseTo((20 * 0.15 + 5 * 0.60) / 1e6, within(1e-12));
            assertThat(line.get("latency_ms").isNumber()).isTrue();
            assertThat(line.get("cached").asBoolean()).isFalse();
        });
        assertThat(bot).extracting(l -> l.get("case_id").asText() + " " + l.get("status").asText())
                .containsExactlyInAnyOrder("france passed", "japan passed", "kenya failed");
        assertThat(linesOf(run, "sim_small")).hasSize(3);
        // the real client sent the real request
        assertThat(server.requests).hasSize(3).allSatisfy(request -> {
            assertThat(request.get("model").asText()).isEqualTo("gpt-4o-mini");
            assertThat(request.get("messages").get(0).get("role").asText()).isEqualTo("user");
        });
        assertThat(server.authorizations).containsOnly("Bearer sk-loopback");
        // read from the member once per run, not once per case
        assertThat(LangChain4jModelFixture.BUILT.get()).isEqualTo(1);

        JsonNode models = JSON.readTree(output.resolve("leaderboard.json").toFile()).get("evals").get(0).get("models");
        JsonNode entry = null;
        for (JsonNode model : models) {
            if (model.get("model").asText().equals("support-bot")) {
                entry = model;
            }
        }
        assertThat(entry).as("support-bot on the leaderboard").isNotNull();
        assertThat(entry.get("tokensIn").asLong()).isEqualTo(60);
        assertThat(entry.get("costUsd").asDouble()).isCloseTo(3 * (20 * 0.15 + 5 * 0.60) / 1e6, within(1e-12));
        assertThat(entry.get("latencyCalls").asInt()).isEqualTo(3);
    }

    @Test
    void aConfiguredPriceWinsOverThePriceOfTheReportedModel() {
        EngineRun run = new EngineRun(output)
                .with("arena.models.support-bot.price.input-per-million", "1")
                .with("arena.models.support-bot.price.output-per-million", "2")
                .execute(LangChain4jModelFixture.class);

        assertThat(linesOf(run, "support-bot")).allSatisfy(line -> assertThat(line.get("cost_usd").asDouble())
                .isCloseTo((20 * 1 + 5 * 2) / 1e6, within(1e-12)));
    }

    @Test
    void recordedOnceThenReplayedWithoutTheModelNorTheMember() {
        Path recordings = output.resolve("recordings");
        new EngineRun(output.resolve("record")).with(Constants.CACHE_MODE, "record")
                .with(Constants.CACHE_DIR, recordings.toString()).execute(LangChain4jModelFixture.class);
        assertThat(recordings.resolve("support-bot").resolve("france.json")).isRegularFile();
        assertThat(server.requests).hasSize(3);
        server.close();
        LangChain4jModelFixture.BUILT.set(0);

        EngineRun replay = new EngineRun(output.resolve("replay")).with(Constants.CACHE_MODE, "replay")
                .with(Constants.CACHE_DIR, recordings.toString()).execute(LangChain4jModelFixture.class);

        List<JsonNode> bot = linesOf(replay, "support-bot");
        assertThat(bot).hasSize(3).allSatisfy(line -> {
            assertThat(line.get("cached").asBoolean()).isTrue();
            assertThat(line.get("cost_usd").asDouble()).isZero();
            assertThat(line.get("tokens_in").asLong()).isEqualTo(20);
        });
        assertThat(bot).filteredOn(l -> l.get("case_id").asText().equals("france")).singleElement()
                .satisfies(l -> assertThat(l.get("output").asText()).isEqualTo("The capital of France is Paris."));
        assertThat(LangChain4jModelFixture.BUILT.get()).as("the member is never read when recordings answer").isZero();
        assertThat(server.requests).hasSize(3);
    }

    @Test
    void aFailingCallIsAnErrorOfTheCaseNeverALowScore() throws IOException {
        server.close();
        server = LoopbackOpenAi.answering(request -> LoopbackOpenAi.error(500, "the model is down"));
        LangChain4jModelFixture.baseUrl = server.baseUrl();

        EngineRun run = new EngineRun(output).execute(LangChain4jModelFixture.class);

        assertThat(linesOf(run, "support-bot")).hasSize(3).allSatisfy(line -> {
            assertThat(line.get("status").asText()).isEqualTo("error");
            assertThat(line.get("error").asText()).startsWith("ModelCallException: support-bot: the LangChain4j "
                    + "OpenAiChatModel call failed").contains("the model is down");
        });
        assertThat(linesOf(run, "sim_small")).noneMatch(line -> line.get("status").asText().equals("error"));
    }

    @Test
    void anAiServiceBuiltOnTheEnginesChatModelRunsAgainstEachModelOfTheEval() {
        EngineRun run = new EngineRun(output).with("arena.models.openai:loop.base-url", server.baseUrl())
                .execute(LangChain4jTaskFixture.class);

        List<JsonNode> loop = linesOf(run, "openai:loop");
        assertThat(loop).hasSize(3).allSatisfy(line -> {
            assertThat(line.get("tokens_in").asLong()).isEqualTo(20);
            assertThat(line.get("latency_ms").isNumber()).isTrue();
        });
        assertThat(loop).filteredOn(l -> l.get("case_id").asText().equals("japan")).singleElement()
                .satisfies(l -> assertThat(l.get("status").asText()).isEqualTo("passed"));
        // the AI service's system message and the case's question reached the model through the engine
        assertThat(server.requests).hasSize(3).allSatisfy(request -> {
            assertThat(request.get("messages").get(0).get("role").asText()).isEqualTo("system");
            assertThat(request.get("messages").get(0).get("content").asText())
                    .isEqualTo("Answer with the capital city only.");
        });
        // the simulated model answered the same service: the calls were tagged with their case
        List<JsonNode> simulated = linesOf(run, "sim_small");
        assertThat(simulated).hasSize(3).allSatisfy(line -> {
            assertThat(line.get("status").asText()).isIn("passed", "failed");
            assertThat(line.get("tokens_in").asLong()).isPositive();
            assertThat(line.get("cost_usd").asDouble()).isPositive();
        });
    }

    @Test
    void toolDefinitionsReachTheModelAndAnAiServiceRunsItsToolLoopOverHttp() throws IOException {
        server.close();
        // the model asks for the tool, then answers once the request carries the tool's result
        server = LoopbackOpenAi.answering(request -> {
            for (JsonNode message : request.get("messages")) {
                if (message.get("role").asText().equals("tool")) {
                    return LoopbackOpenAi.text("Order 42 has " + message.get("content").asText() + ".",
                            Capitals.REPORTED_MODEL, 40, 6);
                }
            }
            return LoopbackOpenAi.toolCall("orderStatus", "{\"orderId\":\"42\"}", Capitals.REPORTED_MODEL, 30, 8);
        });

        EngineRun run = new EngineRun(output).with("arena.models.openai:loop.base-url", server.baseUrl())
                .execute(LangChain4jToolsFixture.class);

        run.assertNode("direct", "tool_calls", "passed", "tools called as expected");
        JsonNode tool = server.requests.get(0).get("tools").get(0);
        assertThat(tool.get("type").asText()).isEqualTo("function");
        assertThat(tool.at("/function/name").asText()).isEqualTo("orderStatus");
        assertThat(tool.at("/function/parameters/properties/orderId/type").asText()).isEqualTo("string");
        // the AI service ran its tool in the app and sent the result back through the engine: two model calls
        JsonNode service = run.assertNode("service", "tool_calls", "passed", "tools called as expected");
        assertThat(service.get("output").asText()).isEqualTo("Order 42 has shipped.");
        assertThat(service.get("tokens_in").asLong()).isEqualTo(70);
        assertThat(server.requests).hasSize(3);
    }

    private static List<JsonNode> linesOf(EngineRun run, String model) {
        return run.lines().stream().filter(l -> l.get("model").asText().equals(model)).collect(Collectors.toList());
    }
}
