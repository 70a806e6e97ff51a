package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.agentarena.junit.engine.fixtures.integration.Capitals;
import dev.agentarena.junit.engine.fixtures.integration.LangChain4jTaskFixture;
import dev.agentarena.junit.engine.fixtures.integration.SpringAiTaskFixture;
import dev.agentarena.junit.engine.integration.LoopbackOpenAi;

/**
 * {@code arena.budget.usd} stops the calls a task makes through the chat model the engine provides, in either
 * library (a LangChain4j AI service, Spring AI's {@code ChatClient}), as it stops calls through the {@code Model}
 * handle: the cases left over are not run.
 */
class ChatLibraryBudgetEngineTest {

    @TempDir
    Path output;

    @ParameterizedTest
    @ValueSource(classes = {LangChain4jTaskFixture.class, SpringAiTaskFixture.class})
    void theBudgetStopsTheCallsOfTheEnginesChatModelAndTheCasesLeftOverAreNotRun(Class<?> fixture)
            throws IOException {
        try (LoopbackOpenAi server = LoopbackOpenAi.answering(Capitals::answer)) {
            // the first call costs 20 * 0.15 + 5 * 0.60 = 6 micro-dollars: more than the whole budget
            EngineRun run = new EngineRun(output).with(Constants.MODELS, "openai:loop")
                    .with("arena.models.openai:loop.base-url", server.baseUrl())
                    .with("arena.models.openai:loop.price.input-per-million", "0.15")
                    .with("arena.models.openai:loop.price.output-per-million", "0.60")
                    .with(Constants.BUDGET_USD, "0.000001").with(Constants.CONCURRENCY, "1")
                    .execute(fixture);

            assertThat(server.requests).hasSize(1);
            assertThat(run.lines()).extracting(l -> l.get("status").asText()).containsExactlyInAnyOrder("passed",
                    "not_run", "not_run");
        }
    }
}
