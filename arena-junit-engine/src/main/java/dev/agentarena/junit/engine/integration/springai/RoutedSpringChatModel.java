package dev.agentarena.junit.engine.integration.springai;

import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;

import dev.agentarena.junit.engine.models.CaseModelScope;
import dev.agentarena.junit.model.Model;

/**
 * The Spring AI {@code ChatModel} bean that stands for an application's own under {@code @RouteChatModelsToArena}
 * (and so inside the {@code ChatClient}s built on it): each call goes to the model of the case whose task is running
 * ({@link CaseModelScope}), through the same adapter a task's {@code ChatModel} parameter gets.
 */
final class RoutedSpringChatModel implements ChatModel {

    private final String caller;

    RoutedSpringChatModel(String beanName) {
        this.caller = "the Spring AI ChatModel bean '" + beanName + "'";
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        Model model = CaseModelScope.require(caller);
        return new ArenaSpringChatModel(model.key(), model::complete).call(prompt);
    }

    @Override
    public String toString() {
        return "RoutedSpringChatModel[" + caller + "]";
    }
}
