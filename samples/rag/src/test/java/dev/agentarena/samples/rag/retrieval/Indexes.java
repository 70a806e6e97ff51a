package dev.agentarena.samples.rag.retrieval;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.samples.rag.retrieval.Handbook.Passage;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.content.retriever.EmbeddingStoreContentRetriever;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;

/**
 * The handbook indexed in process, once per JVM on first use, by every retriever the sample compares: Lucene BM25,
 * Lucene vectors (HNSW over all-MiniLM-L6-v2 embeddings), LangChain4j's {@code InMemoryEmbeddingStore} over the same
 * embeddings, and a hybrid of BM25 and Lucene vectors by reciprocal rank fusion. The corpus is embedded once, in one
 * batch, and every index reuses the vectors; {@link #timings()} says how long each step took.
 *
 * <p>Invariant: built once, read-only after, safe to search from several threads.
 */
public final class Indexes {

    /** The rank constant of reciprocal rank fusion (Cormack et al., 2009). */
    static final int RRF_K = 60;
    /** How deep the hybrid reads each retriever's ranking before fusing. */
    static final int FUSION_DEPTH = 50;

    private static final Indexes INSTANCE = new Indexes();

    private final Map<String, Passage> byId;
    private final LuceneIndex lucene;
    private final InMemoryEmbeddingStore<TextSegment> store = new InMemoryEmbeddingStore<>();
    private final Map<String, Long> timings = new LinkedHashMap<>();

    private Indexes() {
        List<Passage> passages = Handbook.passages();
        byId = passages.stream().collect(Collectors.toMap(Passage::id, Function.identity()));
        long start = System.nanoTime();
        MiniLm.model().embedAll(passages.stream().map(p -> TextSegment.from(p.content())).toList());
        long embedded = System.nanoTime();
        lucene = new LuceneIndex(passages, byId);
        long indexed = System.nanoTime();
        for (Passage passage : passages) {
            store.add(passage.id(), Embedding.from(MiniLm.vector(passage.content())), segment(passage));
        }
        long stored = System.nanoTime();
        timings.put("embed " + passages.size() + " passages", (embedded - start) / 1_000_000);
        timings.put("Lucene index (BM25 and HNSW)", (indexed - embedded) / 1_000_000);
        timings.put("LangChain4j in-memory store", (stored - indexed) / 1_000_000);
    }

    /** The indexes, built on first call. */
    public static Indexes get() {
        return INSTANCE;
    }

    /** Milliseconds each indexing step took, in order. */
    public Map<String, Long> timings() {
        return Map.copyOf(timings);
    }

    /** A passage's segment: its text, with its id and title as metadata (the id is what the engine reports). */
    public static TextSegment segment(Passage passage) {
        return TextSegment.from(passage.text(), Metadata.from(Map.of("id", passage.id(), "title", passage.title())));
    }

    /** Lucene BM25. */
    public Retriever bm25() {
        return lucene.bm25();
    }

    /** Lucene nearest neighbours of the question's all-MiniLM-L6-v2 embedding. */
    public Retriever vectors() {
        return lucene.vectors();
    }

    // tag::hybrid[]
    /** BM25 and vectors fused: each passage scores the sum of 1 / (60 + its rank) in either ranking. */
    public Retriever hybrid() {
        Retriever bm25 = bm25();
        Retriever vectors = vectors();
        return (question, k) -> {
            Map<String, Double> fused = new HashMap<>();
            for (Retriever retriever : List.of(bm25, vectors)) {
                List<RetrievedPassage> ranking = retriever.retrieve(question, FUSION_DEPTH);
                for (int rank = 1; rank <= ranking.size(); rank++) {
                    fused.merge(ranking.get(rank - 1).id(), 1.0 / (RRF_K + rank), Double::sum);
                }
            }
            return fused.entrySet().stream()
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed()
                            .thenComparing(Map.Entry.comparingByKey()))
                    .limit(k)
                    .map(e -> {
                        Passage passage = byId.get(e.getKey());
                        return RetrievedPassage.of(passage.id(), passage.text()).withScore(e.getValue())
                                .withSource(Map.of("title", passage.title(), "retriever", "hybrid-rrf"));
                    })
                    .toList();
        };
    }
    // end::hybrid[]

    /** LangChain4j's in-memory embedding store, searched directly. */
    public Retriever embeddingStore() {
        return (question, k) -> question.isBlank() ? List.of() : store.search(EmbeddingSearchRequest.builder()
                .queryEmbedding(Embedding.from(MiniLm.vector(question))).maxResults(k).build())
                .matches().stream()
                .map(match -> RetrievedPassage.of(match.embeddingId(), match.embedded().text())
                        .withScore(match.score())
                        .withSource(Map.of("title", match.embedded().metadata().getString("title"),
                                "retriever", "langchain4j-in-memory")))
                .toList();
    }

    /** The same store as a LangChain4j {@code ContentRetriever}, for an AI service. */
    public ContentRetriever contentRetriever(int k) {
        return EmbeddingStoreContentRetriever.builder().embeddingStore(store).embeddingModel(MiniLm.model())
                .maxResults(k).build();
    }

    /** Every passage by id. */
    public Map<String, Passage> passages() {
        return byId;
    }
}
