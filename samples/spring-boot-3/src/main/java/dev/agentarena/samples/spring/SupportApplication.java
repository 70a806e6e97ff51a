package dev.agentarena.samples.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A tiny support desk: {@link TicketRouter} sends each ticket to a queue, asking a chat model through the app's own
 * {@link SupportChatModel}. A deployment provides that bean (an HTTP client, Spring AI's {@code ChatClient}, a
 * LangChain4j model, behind the interface); the eval provides one backed by the model under evaluation.
 */
@SpringBootApplication
public class SupportApplication {

    public static void main(String[] args) {
        SpringApplication.run(SupportApplication.class, args);
    }
}
