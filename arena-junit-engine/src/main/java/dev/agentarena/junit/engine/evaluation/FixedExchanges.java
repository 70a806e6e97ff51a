package dev.agentarena.junit.engine.evaluation;

import java.util.ArrayList;
import java.util.List;

import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

/**
 * The parts of a case's conversation that the task never saw: when the case fixes every tool an answer asks for, the
 * model handle answers those calls itself and asks the model again, so the task gets only the answer after them.
 * Its next request (the agent's next turn of the loop, the next turn of a conversation) would then leave out that
 * exchange, and the model would see a conversation in which its earlier calls never happened: it would ask for them
 * again, or act on what it never read. This puts each exchange back where it took place in every later request of
 * the same conversation, so the model is sent what it actually said and was told.
 */
final class FixedExchanges {

    /**
     * One exchange the handle held: after the task's messages {@code prefix}, the messages {@code held} (assistant
     * turns with fixed calls, and their results), which the answer {@code answer} handed to the task followed.
     */
    private record Exchange(List<Message> prefix, List<Message> held, Completion answer) {
    }

    private final List<Exchange> exchanges = new ArrayList<>();

    /** The handle answered fixed calls on its own between the task's request and the answer it hands back. */
    synchronized void held(ModelRequest asked, List<Message> held, Completion answer) {
        List<Message> prefix = List.copyOf(asked.messages());
        // the same conversation asked again from the same point (a task that runs the agent twice): the newest counts
        exchanges.removeIf(exchange -> sameMessages(exchange.prefix(), prefix));
        exchanges.add(new Exchange(prefix, List.copyOf(held), answer));
    }

    /**
     * The task's request with every exchange the handle held put back where it took place: right after the messages
     * the task had sent then, when the request goes on from there with the answer the task was handed.
     */
    synchronized ModelRequest restore(ModelRequest request) {
        if (exchanges.isEmpty()) {
            return request;
        }
        List<Message> messages = request.messages();
        List<Exchange> matching = new ArrayList<>();
        for (Exchange exchange : exchanges) {
            int at = exchange.prefix().size();
            if (messages.size() > at && sameMessages(exchange.prefix(), messages.subList(0, at))
                    && continuesWith(messages.get(at), exchange.answer())) {
                matching.add(exchange);
            }
        }
        if (matching.isEmpty()) {
            return request;
        }
        // from the furthest point back, so the earlier points keep their places in the task's messages
        matching.sort((a, b) -> Integer.compare(b.prefix().size(), a.prefix().size()));
        List<Message> restored = new ArrayList<>(messages);
        for (Exchange exchange : matching) {
            restored.addAll(exchange.prefix().size(), exchange.held());
        }
        return request.withMessages(restored);
    }

    /** Whether the task's message is the assistant turn of the answer it was handed (its text and the tools asked). */
    private static boolean continuesWith(Message message, Completion answer) {
        return message.role().equals("assistant") && message.content().strip().equals(answer.text().strip())
                && message.toolCalls().stream().map(ToolCall::name).toList()
                        .equals(answer.toolCalls().stream().map(ToolCall::name).toList());
    }

    /**
     * Whether two runs of messages are the same conversation: roles, texts and the calls they answer or ask for,
     * by name (a chat library may number calls that had no id anew when it converts its messages again).
     */
    private static boolean sameMessages(List<Message> a, List<Message> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            Message x = a.get(i);
            Message y = b.get(i);
            if (!x.role().equals(y.role()) || !x.content().equals(y.content()) || !x.toolName().equals(y.toolName())
                    || !x.toolCalls().stream().map(ToolCall::name).toList()
                            .equals(y.toolCalls().stream().map(ToolCall::name).toList())) {
                return false;
            }
        }
        return true;
    }
}
