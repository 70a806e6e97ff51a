package dev.agentarena.samples.rag.apps;

import dev.agentarena.samples.rag.retrieval.Indexes;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.Result;

/**
 * The team's LangChain4j RAG app: an AI service whose {@code ContentRetriever} searches LangChain4j's
 * {@code InMemoryEmbeddingStore} of the handbook (all-MiniLM-L6-v2, in process); its {@code Result} carries the
 * retrieved contents as {@code sources()}.
 */
// tag::service[]
public interface LangChain4jHandbookAssistant {

    /** Answers a question from the handbook. */
    Result<String> answer(String question);

    /** The service on this chat model, retrieving the {@code maxResults} nearest passages. */
    static LangChain4jHandbookAssistant create(ChatModel model, int maxResults) {
        return AiServices.builder(LangChain4jHandbookAssistant.class)
                .chatModel(model)
                .contentRetriever(Indexes.get().contentRetriever(maxResults))
                .build();
    }
}
// end::service[]
