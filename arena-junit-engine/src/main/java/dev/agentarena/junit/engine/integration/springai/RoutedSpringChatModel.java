package dev.agentarena.junit.engine.integration.springai;

import java.util.function.Supplier;

import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;

import dev.agentarena.junit.engine.models.CaseModelScope;
import dev.agentarena.junit.model.Model;

/**
 * The Spring AI {@code ChatModel} bean that stands for an application's own under {@code @RouteChatModelsToArena}
 * (and so inside the {@code ChatClient}s built on it): each call goes to the model of the case whose task is running
 * ({@link CaseModelScope}), through the same adapter a task's {@code ChatModel} parameter gets. On 1.x it runs tools
 * through the context's {@code ToolCallingManager} bean when there is one, as Spring AI's chat models do (its
 * auto-configuration builds it with the app's {@code ObservationRegistry}, so the tool calls are observed and
 * traced); otherwise through a default one.
 */
final class RoutedSpringChatModel implements ChatModel {

    private final String caller;
    private final Supplier<ToolCallingManager> beans;
    /** The tool calling manager, looked up at the first call: the application's may depend on this model's bean. */
    private volatile ToolCallingManager tools;

    RoutedSpringChatModel(String beanName, Supplier<ToolCallingManager> tools) {
        this.caller = "the Spring AI ChatModel bean '" + beanName + "'";
        this.beans = tools;
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        Model model = CaseModelScope.require(caller);
        ToolCallingManager manager = tools;
        if (manager == null) {
            manager = beans.get();
            tools = manager;
        }
        return new ArenaSpringChatModel(model.key(), model::complete, manager).call(prompt);
    }

    /**
     * Tool-calling options, empty: a 2.x {@code ChatClient} builds each prompt's options from these and keeps the
     * request's tools only when they can carry them. {@code ChatModel.getOptions()} is 2.x's, so no {@code @Override}
     * (1.x has no such method, and nothing calls this there).
     */
    public ChatOptions getOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    @Override
    public String toString() {
        return "RoutedSpringChatModel[" + caller + "]";
    }
}
