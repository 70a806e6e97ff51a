package dev.agentarena.samples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

/** A plain JUnit Jupiter test of the router's own logic, next to the eval in the same Surefire run. */
class TicketRouterTest {

    @Test
    void keepsTheFirstQueueTheReplyNames() {
        assertThat(new TicketRouter(replying(prompt -> "I would classify this as Billing.")).route("charged twice"))
                .isEqualTo("billing");
    }

    @Test
    void sendsATicketToOtherWhenTheReplyNamesNoQueue() {
        assertThat(new TicketRouter(replying(prompt -> "I am not sure.")).route("hello")).isEqualTo("other");
    }

    @Test
    void sendsTheTicketInThePrompt() {
        StringBuilder sent = new StringBuilder();
        new TicketRouter(replying(prompt -> sent.append(prompt).toString())).route("My card is declined.");
        assertThat(sent.toString()).startsWith("Classify this support ticket").endsWith("Ticket: My card is declined.");
    }

    /** A chat model that answers the last user message with a function of it. */
    private static ChatModel replying(UnaryOperator<String> reply) {
        return new ChatModel() {
            @Override
            public ChatResponse doChat(ChatRequest request) {
                String prompt = ((UserMessage) request.messages().get(request.messages().size() - 1)).singleText();
                return ChatResponse.builder().aiMessage(AiMessage.from(reply.apply(prompt))).build();
            }
        };
    }
}
