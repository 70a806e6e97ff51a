package dev.agentarena.junit.engine.integration.springai;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.document.Document;
import org.springframework.core.Ordered;

import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.models.CapturedRetrieval;
import dev.agentarena.junit.engine.models.CaseModelScope;
import dev.agentarena.junit.model.RetrievedPassage;

/**
 * The documents Spring AI's RAG advisors put in a response, as the case's retrieved passages: the advisor of the
 * {@code ChatClient}s the engine provides (and of the application's, under {@code @RouteChatModelsToArena}), and the
 * reading of a {@code ChatResponse} or {@code ChatClientResponse} a task returns.
 *
 * <p>Read under the keys both 1.1 and 2.0 use ({@link #KEYS}), from the response's context, else from the chat
 * response's metadata where the advisors copy them; a value that is not a list of {@code Document}s is left alone.
 * The advisor runs outermost, so it sees the response every other advisor shaped, and changes nothing in it.
 */
final class RetrievedDocuments implements CallAdvisor {

    /** {@code QuestionAnswerAdvisor.RETRIEVED_DOCUMENTS}, {@code RetrievalAugmentationAdvisor.DOCUMENT_CONTEXT}. */
    static final List<String> KEYS = List.of("qa_retrieved_documents", "rag_document_context");

    @Override
    public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
        ChatClientResponse response = chain.nextCall(request);
        Optional<CapturedRetrieval> capture = CaseModelScope.retrieval();
        if (capture.isPresent() && response != null) {
            List<RetrievedPassage> passages = passages(response.context(), response.chatResponse());
            if (!passages.isEmpty()) {
                capture.get().add(CapturedRetrieval.Level.AUGMENTED, passages);
            }
        }
        return response;
    }

    @Override
    public String getName() {
        return "AgentArenaRetrievedDocuments";
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /** A task's returned {@code ChatClientResponse} or {@code ChatResponse} as its output; empty for anything else. */
    static Optional<TaskOutput> taskOutput(Object returned) {
        if (returned instanceof ChatClientResponse response) {
            return Optional.of(TaskOutput.of(text(response.chatResponse()))
                    .withRetrieved(passages(response.context(), response.chatResponse())));
        }
        if (returned instanceof ChatResponse response) {
            return Optional.of(TaskOutput.of(text(response)).withRetrieved(passages(Map.of(), response)));
        }
        return Optional.empty();
    }

    private static String text(ChatResponse response) {
        return response == null || response.getResult() == null || response.getResult().getOutput() == null ? ""
                : response.getResult().getOutput().getText();
    }

    private static List<RetrievedPassage> passages(Map<String, Object> context, ChatResponse response) {
        List<RetrievedPassage> passages = new ArrayList<>();
        for (String key : KEYS) {
            Object documents = context == null ? null : context.get(key);
            if (documents == null && response != null && response.getMetadata() != null) {
                documents = response.getMetadata().get(key);
            }
            if (documents instanceof List<?> list) {
                for (Object document : list) {
                    if (document instanceof Document doc) {
                        passages.add(CapturedRetrieval.passage(doc.getId(), doc.getText(), doc.getScore(),
                                doc.getMetadata()));
                    }
                }
            }
        }
        return passages;
    }
}
