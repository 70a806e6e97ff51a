package dev.agentarena.junit.engine.integration.langchain4j;

import dev.agentarena.junit.engine.models.CaseModelScope;
import dev.agentarena.junit.model.Model;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

/**
 * The LangChain4j {@code ChatModel} bean that stands for an application's own under {@code @RouteChatModelsToArena}:
 * each call goes to the model of the case whose task is running ({@link CaseModelScope}), through the same adapter a
 * task's {@code ChatModel} parameter gets, so it is timed, counted, priced, recorded and replayed.
 */
final class RoutedChatModel implements ChatModel {

    private final String caller;

    RoutedChatModel(String beanName) {
        this.caller = "the LangChain4j ChatModel bean '" + beanName + "'";
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
