package dev.agentarena.junit.engine.integration.springai;

import java.util.function.Function;

import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;

import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelRequest;

/**
 * The Spring AI {@code ChatModel} the engine hands to a task (the model under evaluation) or to a scorer (the
 * judge), directly or inside a {@code ChatClient}: the team's Spring AI code runs against the eval's model, and the
 * engine times, prices, records, replays and budgets every call. Tools are offered to the model and its tool calls
 * returned; it does not run them.
 */
final class ArenaSpringChatModel implements ChatModel {

    private final String modelKey;
    private final Function<ModelRequest, Completion> calls;

    ArenaSpringChatModel(String modelKey, Function<ModelRequest, Completion> calls) {
        this.modelKey = modelKey;
        this.calls = calls;
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        return SpringAiMessages.chatResponse(calls.apply(SpringAiMessages.modelRequest(prompt)), modelKey);
    }

    @Override
    public String toString() {
        return "ArenaSpringChatModel[" + modelKey + "]";
    }
}
