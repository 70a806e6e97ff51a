package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.retrieval.InMemoryStoreReplayFixture;
import dev.agentarena.junit.engine.fixtures.retrieval.LangChain4jRetrievalFixture;
import dev.agentarena.junit.engine.fixtures.retrieval.ReplayedRetrievalFixture;
import dev.agentarena.junit.engine.fixtures.retrieval.RoutedRetrievalFixture;
import dev.agentarena.junit.engine.fixtures.retrieval.SpringAiRetrievalFixture;
import dev.agentarena.junit.engine.models.CapturedRetrieval;
import dev.agentarena.junit.model.RetrievedPassage;

/**
 * Retrieval captured without the task's help (a LangChain4j AI service's {@code Result}, a Spring AI
 * {@code ChatClient}'s RAG advisor, the application's retriever beans under {@code @RouteChatModelsToArena}), the
 * task's own passages winning over it, and the passages recorded and checked on replay.
 */
class RetrievalCaptureEngineTest {

    @TempDir
    Path output;

    @AfterEach
    void emptyCorpus() {
        ReplayedRetrievalFixture.corpus = List.of();
    }

    @Test
    void anAiServiceResultsSourcesAreThePassagesInOrder() {
        EngineRun run = new EngineRun(output).execute(LangChain4jRetrievalFixture.class);

        run.assertNode("returns", "retrieved", "passed", "retrieved [1:faq-12@0.83, 2:emb-40@0.41, 3:"
                + CapturedRetrieval.textId("Gift cards never expire.") + "@null]");
        JsonNode first = run.line("returns", "retrieved").get("retrieved").get(0);
        assertThat(first.get("text").asText()).isEqualTo("Items can be returned within 30 days.");
        assertThat(first.get("source").get("file").asText()).isEqualTo("returns.md");
        assertThat(first.get("source").get("page").asInt()).isEqualTo(3);
        assertThat(first.get("source").get("embedding_id").asText()).isEqualTo("emb-12");
    }

    @Test
    void theTasksOwnPassagesWinOverCapturedOnes() {
        EngineRun run = new EngineRun(output).execute(LangChain4jRetrievalFixture.class);

        run.assertNode("own", "retrieved", "passed", "retrieved [1:mine@null]");
    }

    @Test
    void aMegabytePassageWithControlCharactersIsCapturedWhole() throws Exception {
        EngineRun run = new EngineRun(output).execute(LangChain4jRetrievalFixture.class);

        JsonNode line = run.assertNode("huge", "retrieved", "passed", "retrieved [1:faq-12");
        JsonNode whole = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(output.resolve(line.get("retrieved_file").asText()).toFile());
        assertThat(whole.get(2).get("text").asText()).isEqualTo(LangChain4jRetrievalFixture.class
                .getDeclaredField("HUGE").get(null));
    }

    @Test
    void aSpringAiAdvisorsDocumentsAreThePassagesWhateverTheTaskReturns() {
        EngineRun run = new EngineRun(output).execute(SpringAiRetrievalFixture.class);

        run.assertNode("content", "retrieved", "passed", "retrieved [1:faq-12@0.83, 2:faq-40@0.41]");
        run.assertNode("response", "retrieved", "passed", "retrieved [1:faq-12@0.83, 2:faq-40@0.41]");
        run.assertNode("chat_response", "retrieved", "passed", "retrieved [1:faq-12@0.83, 2:faq-40@0.41]");
        assertThat(run.line("chat_response", "retrieved").get("output").asText())
                .isEqualTo(run.line("content", "retrieved").get("output").asText());
        assertThat(run.line("content", "retrieved").get("retrieved").get(0).get("source").get("file").asText())
                .isEqualTo("returns.md");
        JsonNode questionAnswer = run.assertNode("question_answer", "retrieved", "passed", "retrieved [1:faq-")
                .get("retrieved");
        assertThat(questionAnswer).extracting(p -> p.get("id").asText()).containsExactlyInAnyOrder("faq-12", "faq-40");
        assertThat(questionAnswer).allSatisfy(p -> {
            assertThat(p.get("score").asDouble()).isPositive();
            assertThat(p.get("source").has("distance")).isTrue();
        });
    }

    @Test
    void theApplicationsRetrieverBeansAndChatClientAreCapturedWhenRouted() {
        EngineRun run = new EngineRun(output).execute(RoutedRetrievalFixture.class);

        run.assertNode("langchain4j", "retrieved", "passed", "retrieved [1:faq-12@null, 2:faq-13@null]");
        // what the augmentor put in the prompt, not what its retriever found before
        run.assertNode("augmented", "retrieved", "passed", "retrieved [1:faq-13@null, 2:faq-12@null]");
        run.assertNode("spring_ai", "retrieved", "passed", "retrieved [1:faq-40@null]");
    }

    @Test
    void aReplayWithTheRecordedRetrievalPasses() {
        Path recordings = output.resolve("recordings");
        ReplayedRetrievalFixture.corpus = List.of(RetrievedPassage.of("faq-12", "Within 30 days.").withScore(0.8));
        new EngineRun(output.resolve("record")).with(Constants.CACHE_MODE, "record")
                .with(Constants.CACHE_DIR, recordings.toString()).execute(ReplayedRetrievalFixture.class);

        new EngineRun(output.resolve("replay")).with(Constants.CACHE_MODE, "replay")
                .with(Constants.CACHE_DIR, recordings.toString()).execute(ReplayedRetrievalFixture.class)
                .assertNode("returns", "retrieved", "passed", "retrieved [1:faq-12@0.8]");
    }

    @Test
    void anEmbeddingIdDrawnAnewOnEachRunIsNoReplayMiss() {
        // InMemoryEmbeddingStore.add(embedding, segment) draws a random id per run: the passage's own id is compared
        Path recordings = output.resolve("recordings");
        InMemoryStoreReplayFixture.embeddingId = "emb-recorded";
        new EngineRun(output.resolve("record")).with(Constants.CACHE_MODE, "record")
                .with(Constants.CACHE_DIR, recordings.toString()).execute(InMemoryStoreReplayFixture.class);

        InMemoryStoreReplayFixture.embeddingId = "emb-drawn-again";
        EngineRun replay = new EngineRun(output.resolve("replay")).with(Constants.CACHE_MODE, "replay")
                .with(Constants.CACHE_DIR, recordings.toString()).execute(InMemoryStoreReplayFixture.class);
        JsonNode line = replay.assertNode("returns", "retrieved", "passed", "retrieved [1:faq-12@0.83]");
        assertThat(line.get("retrieved").get(0).get("source").get("embedding_id").asText()).isEqualTo("emb-drawn-again");
    }

    @Test
    void aChangedRetrievalIsAReplayMissNamingThePassage() throws Exception {
        Path recordings = output.resolve("recordings");
        ReplayedRetrievalFixture.corpus = List.of(RetrievedPassage.of("faq-12", "Within 30 days.").withScore(0.8),
                RetrievedPassage.of("faq-40", "Free shipping.").withSource(Map.of("file", "ship.md")));
        new EngineRun(output.resolve("record")).with(Constants.CACHE_MODE, "record")
                .with(Constants.CACHE_DIR, recordings.toString()).execute(ReplayedRetrievalFixture.class);
        assertThat(Files.readString(recordings.resolve("sim_small").resolve("returns.json")))
                .contains("\"retrieved\"", "\"faq-40\"", "ship.md");

        ReplayedRetrievalFixture.corpus = List.of(RetrievedPassage.of("faq-12", "Within 14 days.").withScore(0.7),
                RetrievedPassage.of("faq-41", "Free shipping."));
        new EngineRun(output.resolve("replay")).with(Constants.CACHE_MODE, "replay")
                .with(Constants.CACHE_DIR, recordings.toString()).execute(ReplayedRetrievalFixture.class)
                .assertNode("returns", "retrieved", "error", "passage 1 ('faq-12') text: recorded 'Within 30 days.', "
                        + "now 'Within 14 days.', score: recorded 0.8, now 0.7; passage 2: recorded 'faq-40', now "
                        + "'faq-41'");
    }
}
