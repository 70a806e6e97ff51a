package dev.agentarena.samples.integrations.langchain4j;

import java.util.List;
import java.util.Map;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.rag.content.retriever.EmbeddingStoreContentRetriever;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.Result;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;

/**
 * A LangChain4j RAG service evaluated with what it retrieved: an in-memory embedding store of four FAQ passages
 * (all-MiniLM-L6-v2, in process), an AI service returning {@code Result<String>}. The engine takes the result's
 * sources as the case's passages (id from the segment's {@code id} metadata, score, metadata as source), with no
 * code in the task; the scorer reads them from the scoring context.
 */
@Eval("faq-retrieval-langchain4j")
@UseModels("sim_small")
class FaqRetrievalEvalTest {

    // tag::service[]
    /** The team's RAG service: returning Result<String> hands back its sources with the answer. */
    interface FaqAssistant {
        Result<String> answer(String question);
    }
    // end::service[]

    static final EmbeddingModel EMBEDDINGS = new AllMiniLmL6V2EmbeddingModel();
    static final InMemoryEmbeddingStore<TextSegment> STORE = new InMemoryEmbeddingStore<>();

    static {
        Map.of("faq-returns", "Items can be returned within 30 days of delivery for a full refund.",
                "faq-shipping", "Shipping is free for orders above 50 euros.",
                "faq-giftcards", "Gift cards never expire and can be used in every store.",
                "faq-hours", "The stores open at nine in the morning and close at seven.")
                .forEach((id, text) -> {
                    TextSegment segment = TextSegment.from(text, Metadata.from("id", id));
                    STORE.add(EMBEDDINGS.embed(segment).content(), segment);
                });
    }

    @EvalDataset
    List<EvalCase> questions() {
        return List.of(EvalCase.of("returns", "How long can I send an item back?", "faq-returns"),
                EvalCase.of("shipping", "Do I pay for delivery?", "faq-shipping"),
                EvalCase.of("hours", "When do you open?", "faq-hours"));
    }

    // tag::task[]
    @Task
    Result<String> answer(String input, ChatModel model) {
        FaqAssistant assistant = AiServices.builder(FaqAssistant.class)
                .chatModel(model)
                .contentRetriever(EmbeddingStoreContentRetriever.builder()
                        .embeddingStore(STORE).embeddingModel(EMBEDDINGS).maxResults(2).build())
                .build();
        return assistant.answer(input);
    }
    // end::task[]

    /** Whether the case's relevant passage was among the two retrieved. */
    @Scorer
    ScoreResult foundRelevant(EvalCase question, ScoringContext context) {
        List<String> ids = context.retrieved().stream().map(RetrievedPassage::id).toList();
        return ids.contains((String) question.reference()) ? ScoreResult.pass("retrieved " + ids)
                : ScoreResult.fail("retrieved " + ids + ", not " + question.reference());
    }
}
