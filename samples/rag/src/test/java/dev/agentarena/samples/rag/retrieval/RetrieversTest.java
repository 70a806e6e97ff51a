package dev.agentarena.samples.rag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.agentarena.junit.model.RetrievedPassage;

/** The retrievers over the handbook: what each finds, and that odd questions give a ranking, never an exception. */
class RetrieversTest {

    private static Indexes indexes;

    @BeforeAll
    static void index() {
        indexes = Indexes.get();
        System.out.println("RAG sample indexing (ms): " + indexes.timings());
    }

    private static Map<String, Retriever> retrievers() {
        return Map.of("bm25", indexes.bm25(), "vectors", indexes.vectors(), "hybrid", indexes.hybrid(),
                "store", indexes.embeddingStore());
    }

    @Test
    void theCorpusHasAtLeastTwoHundredPassagesOfFortyToOneHundredTwentyWords() {
        assertThat(Handbook.passages()).hasSizeGreaterThanOrEqualTo(200)
                .allSatisfy(p -> assertThat(p.text().split("\\s+").length).isBetween(40, 120));
    }

    @Test
    void bm25RanksThePassageOfAnExactPartNumberFirst() {
        assertThat(indexes.bm25().retrieve("Which heat pump takes the filter cartridge FL-9120-B?", 5).get(0).source())
                .containsEntry("title", "TH-9: replacing the water filter");
    }

    @Test
    void luceneVectorsAndTheLangChain4jStoreAgreeOnTheNearestPassage() {
        String question = "There is steam coming off the box outside, is it broken?";
        assertThat(indexes.vectors().retrieve(question, 1).get(0).id())
                .isEqualTo(indexes.embeddingStore().retrieve(question, 1).get(0).id());
    }

    @Test
    void everyRetrieverReturnsKDistinctPassagesBestFirst() {
        retrievers().forEach((name, retriever) -> {
            List<RetrievedPassage> found = retriever.retrieve("How loud is the TH-9 at night?", 5);
            assertThat(found).as(name).hasSize(5);
            assertThat(found.stream().map(RetrievedPassage::id).distinct()).as(name).hasSize(5);
            assertThat(found).as(name).isSortedAccordingTo((a, b) -> Double.compare(b.score(), a.score()));
        });
    }

    @Test
    void oddQuestionsGiveARankingOrNothingNeverAnException() {
        String huge = "filter ".repeat(20_000) + "FL-9120-B";
        for (String question : List.of("", "   ", "the of and", "\u0000\u0007\u001b[31m", huge, "🔥🔥🔥", "E27".repeat(500))) {
            retrievers().forEach((name, retriever) -> assertThat(retriever.retrieve(question, 3)).as(name)
                    .hasSizeLessThanOrEqualTo(3));
        }
    }
}
