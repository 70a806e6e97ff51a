package dev.agentarena.samples.integrations.springai;

import java.util.List;
import java.util.Map;

import io.micrometer.observation.ObservationRegistry;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;
import org.springframework.ai.rag.retrieval.search.VectorStoreDocumentRetriever;
import org.springframework.ai.vectorstore.SimpleVectorStore;
import org.springframework.ai.vectorstore.VectorStore;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.RouteChatModelsToArena;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * A traced Spring Boot app evaluated with its own spans: the support desk's {@code ChatClient} (from Spring AI's
 * auto-configured builder) with the order tools and retrieval over a {@code SimpleVectorStore}, on the app's
 * {@code ObservationRegistry}, with Micrometer's OpenTelemetry bridge on the class path. The eval has no tracing code:
 * the engine adds its span processor to the tracer provider Spring Boot builds, so each case's
 * {@link ScoringContext#spans()} hold the app's spans for that case: the chat client's, its advisors', the vector
 * store's query and one per tool call, which Spring AI traces in its tool calling manager (1.1: the model's loop, run
 * by the routed model through the app's manager; 2.0: the client's advisor). Runs on Spring Boot 3.5 and Spring AI 1.1
 * here, and on Boot 4 and Spring AI 2.0 in {@code samples/spring-ai-2}.
 */
@SpringBootTest(classes = TracedSupportDeskEvalTest.SupportDeskApp.class)
@RouteChatModelsToArena
@Eval(value = "spring-ai-app-spans", scorers = "contains")
@EvalDataset("support-agent.jsonl")
@UseModels("sim_large")
class TracedSupportDeskEvalTest {

    @Autowired
    ChatClient supportDesk;

    @Task
    String answer(String input) {
        return supportDesk.prompt().user(input).call().content();
    }

    /**
     * Whether the case's spans are the app's request: one chat-client span, a vector-store query (one on 1.1; on 2.0
     * one per step of the client's tool loop, which runs the advisors after it again), and a tool-call span for each
     * tool the app ran, in that order (a tool the case's {@code tool_results} answer does not run).
     */
    @Scorer
    ScoreResult appSpans(ScoringContext context) {
        List<TraceSpan> spans = context.spans();
        long clients = spans.stream().filter(s -> "chat_client".equals(s.attributes().get("spring.ai.kind"))).count();
        long queries = spans.stream().filter(s -> "query".equals(s.attributes().get("db.operation.name"))).count();
        List<String> toolSpans = spans.stream().filter(s -> "tool_call".equals(s.attributes().get("spring.ai.kind")))
                .sorted(java.util.Comparator.comparingLong(TraceSpan::startEpochNanos))
                .map(s -> String.valueOf(s.attributes().get("spring.ai.tool.definition.name"))).toList();
        List<String> called = context.trajectory().toolSteps().stream().filter(step -> !step.fixed())
                .map(step -> step.call().name()).toList();
        String shown = spans.size() + " spans: " + clients + " chat client, " + queries + " vector store queries, tools "
                + toolSpans + " (the app ran " + called + ")";
        return clients == 1 && queries >= 1 && toolSpans.equals(called) ? ScoreResult.pass(shown)
                : ScoreResult.fail(shown + "; spans " + spans.stream().map(TraceSpan::name).toList());
    }

    /** The support desk as the app configures it; Spring Boot's auto-configuration does the rest. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class SupportDeskApp {

        @Bean
        VectorStore helpPages(ObservationRegistry observations) {
            SimpleVectorStore store = SimpleVectorStore.builder(new WordEmbeddings()).observationRegistry(observations)
                    .build();
            store.add(List.of(
                    new Document("faq-returns", "Items can be returned within 30 days of delivery.",
                            Map.of("file", "returns.md")),
                    new Document("faq-refunds", "Refunds reach the card within 5 days of the parcel's return.",
                            Map.of("file", "refunds.md"))));
            return store;
        }

        @Bean
        ChatClient supportDesk(ChatClient.Builder builder, VectorStore helpPages) {
            return builder
                    .defaultSystem("You are the support agent of an online shop. Look orders up before you act on"
                            + " them; refund when the customer asks for it or the parcel is lost; escalate when they"
                            + " ask for a person.")
                    .defaultTools(new SupportAgentToolsEvalTest.SupportTools())
                    .defaultAdvisors(RetrievalAugmentationAdvisor.builder().documentRetriever(
                            VectorStoreDocumentRetriever.builder().vectorStore(helpPages).topK(1).build()).build())
                    .build();
        }
    }
}
