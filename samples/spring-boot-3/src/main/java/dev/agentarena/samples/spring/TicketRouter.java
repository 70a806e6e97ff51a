package dev.agentarena.samples.spring;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.springframework.stereotype.Service;

import dev.langchain4j.model.chat.ChatModel;

/**
 * Routes a support ticket to a queue: asks the chat model for the category, then keeps the first known queue its reply
 * names, or {@code other} when it names none, so a chatty or confused model never leaves a ticket unrouted.
 */
@Service
public class TicketRouter {

    /** The queues of the support desk. */
    public static final List<String> QUEUES = List.of("billing", "technical", "account", "other");

    private static final String PROMPT = "Classify this support ticket as billing, technical, account or other. "
            + "Answer with the label only.\n\nTicket: ";

    private final ChatModel model;

    public TicketRouter(ChatModel model) {
        this.model = model;
    }

    /** The queue for the ticket. */
    public String route(String ticket) {
        String reply = model.chat(PROMPT + ticket).toLowerCase(Locale.ROOT);
        return QUEUES.stream().filter(queue -> Pattern.compile("\\b" + queue + "\\b").matcher(reply).find())
                .findFirst().orElse("other");
    }
}
