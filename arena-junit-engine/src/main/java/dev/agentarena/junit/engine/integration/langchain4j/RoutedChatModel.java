package dev.agentarena.junit.engine.integration.langchain4j;

import java.util.List;
import java.util.function.Supplier;

import dev.agentarena.junit.engine.models.CaseModelScope;
import dev.agentarena.junit.model.Model;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

/**
 * The LangChain4j {@code ChatModel} bean that stands for an application's own under {@code @RouteChatModelsToArena}:
 * each call goes to the model of the case whose task is running ({@link CaseModelScope}), through the same adapter a
 * task's {@code ChatModel} parameter gets, so it is timed, counted, priced, recorded and replayed. Around each call it
 * notifies the context's {@code ChatModelListener} beans, as the application's model did (LangChain4j's Spring Boot
 * starters give them to the models they build): an instrumentation listener's spans then cover the routed calls.
 */
final class RoutedChatModel implements ChatModel {

    private final String caller;
    private final Supplier<List<ChatModelListener>> beans;
    /** The listener beans, looked up at the first call: a listener may depend on this model's bean. */
    private volatile List<ChatModelListener> listeners;

    RoutedChatModel(String beanName, Supplier<List<ChatModelListener>> listeners) {
        this.caller = "the LangChain4j ChatModel bean '" + beanName + "'";
        this.beans = listeners;
    }

    @Override
    public List<ChatModelListener> listeners() {
        List<ChatModelListener> found = listeners;
        if (found == null) {
            found = List.copyOf(beans.get());
            listeners = found;
        }
        return found;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        Model model = CaseModelScope.require(caller);
        return new ArenaChatModel(model.key(), model::complete).doChat(request);
    }

    @Override
    public String toString() {
        return "RoutedChatModel[" + caller + "]";
    }
}
