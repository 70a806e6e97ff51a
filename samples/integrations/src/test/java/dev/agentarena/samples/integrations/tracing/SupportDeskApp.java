package dev.agentarena.samples.integrations.tracing;

import java.util.List;
import java.util.Map;

import io.micrometer.observation.ObservationRegistry;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.vectorstore.QuestionAnswerAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.document.Document;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.ai.vectorstore.SimpleVectorStore;

import dev.agentarena.samples.integrations.springai.WordEmbeddings;

/**
 * A small Spring AI support app as it runs in production, offline: a {@code ChatClient} with the order tools and a
 * {@code QuestionAnswerAdvisor} over a {@code SimpleVectorStore} of help pages, on {@link SupportDeskStubModel}. Every
 * part is built with the app's {@code ObservationRegistry}, as Spring Boot's auto-configuration builds them, so a
 * conversation is a trace of the client, its advisors, the vector-store query, the model calls and the tool calls.
 */
final class SupportDeskApp {

    static final List<Document> HELP_PAGES = List.of(
            new Document("faq-returns", "Items can be returned within 30 days of delivery, in their original box.",
                    Map.of("file", "returns.md")),
            new Document("faq-shipping", "Shipping is free for orders above 50 euros; below, it costs 4.90 euros.",
                    Map.of("file", "shipping.md")),
            new Document("faq-refunds", "Refunds reach the card within 5 working days of the parcel's return.",
                    Map.of("file", "refunds.md")),
            new Document("faq-hours", "The support desk answers from 9 to 19, Monday to Saturday.",
                    Map.of("file", "hours.md")));

    private final ChatClient chat;

    /** Builds the app; the help pages are loaded before {@code loaded} is run, so loading them is not traced. */
    SupportDeskApp(ObservationRegistry observations, Runnable loaded) {
        SimpleVectorStore helpPages = SimpleVectorStore.builder(new WordEmbeddings()).observationRegistry(observations)
                .build();
        helpPages.add(HELP_PAGES);
        loaded.run();
        this.chat = ChatClient.builder(new SupportDeskStubModel(observations), observations, null, null)
                .defaultSystem("You are the support agent of an online shop. Look orders up before you act on them;"
                        + " refund when the customer asks for it or the parcel is lost; escalate when they ask for a"
                        + " person. Answer policy questions from the help pages.")
                .defaultTools(new OrderTools())
                .defaultAdvisors(QuestionAnswerAdvisor.builder(helpPages)
                        .searchRequest(SearchRequest.builder().topK(2).build()).build())
                .build();
    }

    /** The agent's answer to one customer message of the conversation {@code conversationId}. */
    String answer(String conversationId, String message) {
        return chat.prompt().user(message).advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversationId)).call()
                .content();
    }

    /** The app's tools: in production they call the order system and the ticket desk. */
    public static class OrderTools {

        @Tool(name = "lookup_order", description = "Looks up the status of an order by its number")
        public String lookupOrder(@ToolParam(description = "the order number") int orderId) {
            return "Order " + orderId + " shipped on 2 May and arrives within 3 days.";
        }

        @Tool(name = "refund", description = "Starts the refund of an order by its number")
        public String refund(@ToolParam(description = "the order number") int orderId) {
            return "The refund of order " + orderId + " is started; the money is back within 5 days.";
        }

        @Tool(name = "escalate", description = "Hands the conversation to a team lead, with the reason")
        public String escalate(@ToolParam(description = "the order number") int orderId,
                @ToolParam(description = "why a person must take over") String reason) {
            return "Ticket for order " + orderId + " opened (" + reason + "): a team lead calls within 24 hours.";
        }
    }
}
