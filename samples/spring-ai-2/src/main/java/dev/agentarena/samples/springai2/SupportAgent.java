package dev.agentarena.samples.springai2;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.stereotype.Service;

/**
 * The desk's agent: a {@code ChatClient} with the order tools. On Spring AI 2.0 the client runs the tool loop (its
 * {@code ToolCallingAdvisor}): the model asks for a tool, the client runs it here and sends the result back, until
 * the model answers.
 */
@Service
public class SupportAgent {

    private final ChatClient chat;

    public SupportAgent(ChatModel model) {
        this.chat = ChatClient.builder(model)
                .defaultSystem("You are the support agent of an online shop. Look orders up before you act on them;"
                        + " refund when the customer asks for it or the parcel is lost; escalate when they ask for a"
                        + " person.")
                .defaultTools(new OrderTools())
                .build();
    }

    /** The agent's answer to a customer's message. */
    public String answer(String message) {
        return chat.prompt().user(message).call().content();
    }
}
