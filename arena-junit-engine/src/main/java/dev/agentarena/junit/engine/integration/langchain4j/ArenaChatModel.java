package dev.agentarena.junit.engine.integration.langchain4j;

import java.util.function.Function;

import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelRequest;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

/**
 * The LangChain4j {@code ChatModel} the engine hands to a task (the model under evaluation) or to a scorer (the
 * judge): an AI service built on it runs against the eval's model, its whole tool loop included (the service runs its
 * {@code @Tool} methods and sends their results back through here), and the engine times, prices, records, replays
 * and budgets every call, as it does for calls through {@link dev.agentarena.junit.model.Model}.
 */
final class ArenaChatModel implements ChatModel {

    private final String modelKey;
    private final Function<ModelRequest, Completion> calls;

    ArenaChatModel(String modelKey, Function<ModelRequest, Completion> calls) {
        this.modelKey = modelKey;
        this.calls = calls;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        ModelRequest converted = LangChain4jMessages.modelRequest(request);
        return LangChain4jMessages.chatResponse(calls.apply(converted), modelKey,
                LangChain4jMessages.toolCallsIn(converted));
    }

    @Override
    public String toString() {
        return "ArenaChatModel[" + modelKey + "]";
    }
}
