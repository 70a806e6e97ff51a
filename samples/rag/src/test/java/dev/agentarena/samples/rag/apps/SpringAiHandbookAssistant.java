package dev.agentarena.samples.rag.apps;

import java.util.Map;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.vectorstore.QuestionAnswerAdvisor;
import org.springframework.ai.document.Document;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.ai.vectorstore.SimpleVectorStore;
import org.springframework.ai.vectorstore.VectorStore;

import dev.agentarena.samples.rag.retrieval.Handbook;

/**
 * The team's Spring AI RAG app: a {@code ChatClient} with a {@code QuestionAnswerAdvisor} over a Spring AI
 * {@code SimpleVectorStore} of the handbook, embedded by all-MiniLM-L6-v2 in process. The store is filled once per
 * JVM; each passage is a {@code Document} whose id is the passage's ({@code doc-17}).
 */
public final class SpringAiHandbookAssistant {

    private static final VectorStore STORE = handbookStore();

    private final ChatClient chat;
    private final int topK;

    /** The app on this chat client, putting the {@code topK} nearest passages in the prompt. */
    public SpringAiHandbookAssistant(ChatClient chat, int topK) {
        this.chat = chat;
        this.topK = topK;
    }

    // tag::answer[]
    /** Answers a question from the handbook. */
    public String answer(String question) {
        return chat.prompt()
                .advisors(QuestionAnswerAdvisor.builder(STORE)
                        .searchRequest(SearchRequest.builder().topK(topK).build()).build())
                .user(question)
                .call()
                .content();
    }
    // end::answer[]

    // tag::store[]
    private static VectorStore handbookStore() {
        SimpleVectorStore store = SimpleVectorStore.builder(new MiniLmSpringEmbeddingModel()).build();
        store.add(Handbook.passages().stream()
                .map(p -> new Document(p.id(), p.content(), Map.of("title", p.title()))).toList());
        return store;
    }
    // end::store[]
}
