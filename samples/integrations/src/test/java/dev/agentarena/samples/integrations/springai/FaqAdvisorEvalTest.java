package dev.agentarena.samples.integrations.springai;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.model.RetrievedPassage;

/**
 * A Spring AI RAG client evaluated with what it retrieved: a {@code RetrievalAugmentationAdvisor} over a small
 * in-memory keyword retriever, on the {@code ChatClient.Builder} the engine provides. The documents the advisor put
 * in the response are the case's passages (id, text, score, metadata), with no code in the task. Runs on Spring AI
 * 1.1 here and on 2.0 in {@code samples/spring-ai-2}.
 */
@Eval("faq-retrieval-spring-ai")
@UseModels("sim_small")
class FaqAdvisorEvalTest {

    static final List<Document> FAQ = List.of(
            new Document("faq-returns", "Items can be returned within 30 days of delivery.", Map.of("file", "returns.md")),
            new Document("faq-shipping", "Shipping is free for orders above 50 euros.", Map.of("file", "shipping.md")),
            new Document("faq-hours", "The stores open at nine and close at seven.", Map.of("file", "hours.md")));

    /** Ranks the documents by the words they share with the query, best first, those sharing none left out. */
    static final DocumentRetriever KEYWORDS = (Query query) -> FAQ.stream()
            .map(doc -> doc.mutate().score((double) shared(query.text(), doc.getText())).build())
            .filter(doc -> doc.getScore() > 0)
            .sorted(Comparator.comparing(Document::getScore).reversed())
            .toList();

    static long shared(String query, String text) {
        Set<String> words = words(query);
        return words(text).stream().filter(words::contains).count();
    }

    static Set<String> words(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")).filter(w -> w.length() > 3)
                .collect(Collectors.toSet());
    }

    @EvalDataset
    List<EvalCase> questions() {
        return List.of(EvalCase.of("returns", "Can items be returned after delivery?", "faq-returns"),
                EvalCase.of("shipping", "Is shipping free for small orders?", "faq-shipping"));
    }

    // tag::task[]
    @Task
    String answer(String input, ChatClient.Builder builder) {
        ChatClient chat = builder
                .defaultAdvisors(RetrievalAugmentationAdvisor.builder().documentRetriever(KEYWORDS).build())
                .build();
        return chat.prompt().user(input).call().content();
    }
    // end::task[]

    /** Whether the case's relevant document was retrieved first. */
    @Scorer
    ScoreResult relevantFirst(EvalCase question, ScoringContext context) {
        List<String> ids = context.retrieved().stream().map(RetrievedPassage::id).toList();
        return !ids.isEmpty() && ids.get(0).equals(question.reference()) ? ScoreResult.pass("retrieved " + ids)
                : ScoreResult.fail("retrieved " + ids + ", first should be " + question.reference());
    }
}
