package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.reporting.ReportEntry;

import dev.agentarena.junit.engine.fixtures.integration.SupportAgentScript;
import dev.agentarena.junit.engine.fixtures.spring.ChatAppConfig;
import dev.agentarena.junit.engine.fixtures.spring.InstrumentedAppConfig;
import dev.agentarena.junit.engine.fixtures.spring.InstrumentedRoutingFixture;
import dev.agentarena.junit.engine.fixtures.spring.RoutedChatModelsFixture;
import dev.agentarena.junit.engine.fixtures.spring.RoutedOnAppThreadFixture;
import dev.agentarena.junit.engine.fixtures.spring.UnroutedChatModelsFixture;

/**
 * {@code @RouteChatModelsToArena}: a Spring eval's LangChain4j and Spring AI chat model beans, and an AI service wired
 * to them by name as LangChain4j's starter wires an {@code @AiService}, answer each case with the model under
 * evaluation, and keep the application's instrumentation (its LangChain4j listeners, its Spring AI tool calling
 * manager); without it, the application's own model answers and the run says so.
 */
class ChatModelRoutingEngineTest {

    @TempDir
    Path output;

    @BeforeEach
    void forget() {
        ChatAppConfig.APP_MODELS_CREATED.set(0);
    }

    @Test
    void everyWayToTheApplicationsChatModelsReachesTheModelUnderEvaluation() {
        EngineRun run = new EngineRun(output).execute(RoutedChatModelsFixture.class);

        List<JsonNode> lines = run.lines();
        assertThat(lines).hasSize(6);
        assertThat(lines).extracting(line -> line.get("model").asText() + "/" + line.get("case_id").asText())
                .containsExactlyInAnyOrder("sim_small/langchain4j", "sim_small/spring_ai", "sim_small/ai_service",
                        "sim_large/langchain4j", "sim_large/spring_ai", "sim_large/ai_service");
        for (JsonNode line : lines) {
            String id = line.get("model").asText() + "/" + line.get("case_id").asText();
            assertThat(line.get("status").asText()).as(id).isIn("passed", "failed");
            assertThat(line.get("output").asText()).as(id).isNotEqualTo(ChatAppConfig.OWN_ANSWER);
            // the call went through the case's model handle: counted and priced
            assertThat(line.get("tokens_in").asLong()).as(id).isPositive();
            assertThat(line.get("cost_usd").asDouble()).as(id).isPositive();
        }
        // the beans kept their names and number (the AI service found exactly one), and the application's own
        // models were never created
        assertThat(ChatAppConfig.APP_MODELS_CREATED).hasValue(0);
        assertThat(noCallWarnings(run)).isEmpty();
    }

    @Test
    void withoutRoutingTheApplicationsOwnModelAnswersUnderTheEvaluatedNamesAndTheRunSaysSo() {
        EngineRun run = new EngineRun(output).execute(UnroutedChatModelsFixture.class);

        assertThat(run.lines()).hasSize(4).allSatisfy(line -> {
            assertThat(line.get("output").asText()).isEqualTo(ChatAppConfig.OWN_ANSWER);
            assertThat(line.get("tokens_in").asLong()).isZero();
        });
        assertThat(noCallWarnings(run)).singleElement().asString().startsWith(
                "eval 'unrouted-chat-models': @Task ask() finished 2 of 2 cases on sim_large, 2 of 2 cases on "
                        + "sim_small without one call reaching the model under evaluation");
    }

    @Test
    void withOneCaseAtATimeACallOnAThreadOfTheApplicationGoesToThatCase() {
        EngineRun run = new EngineRun(output).with(Constants.CONCURRENCY, "1")
                .execute(RoutedOnAppThreadFixture.class);

        assertThat(run.lines()).hasSize(2).allSatisfy(line -> {
            assertThat(line.get("status").asText()).isIn("passed", "failed");
            assertThat(line.get("tokens_in").asLong()).isPositive();
        });
    }

    @Test
    void theRoutedModelsKeepTheApplicationsChatModelListenerAndToolCallingManager() {
        InstrumentedAppConfig.SEEN.clear();
        SupportAgentScript.reset();

        EngineRun run = new EngineRun(output).execute(InstrumentedRoutingFixture.class);

        assertThat(run.lines()).extracting(line -> line.get("case_id").asText() + " " + line.get("status").asText())
                .containsExactlyInAnyOrder("langchain4j passed", "refund passed");
        assertThat(InstrumentedAppConfig.SEEN).containsExactlyInAnyOrder("request true", "response true",
                "tools [lookupOrder]", "tools [refund]");
        assertThat(SupportAgentScript.RAN).containsExactly("lookupOrder 42", "refund 42");
    }

    private static List<String> noCallWarnings(EngineRun run) {
        return run.results().allEvents().reportingEntryPublished().stream()
                .map(event -> event.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs().get("warning"))
                .filter(warning -> warning != null && warning.contains("without one call"))
                .collect(Collectors.toList());
    }
}
