package dev.agentarena.junit.engine.integration.springai;

import java.util.ArrayList;
import java.util.List;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.core.Ordered;

/**
 * On Spring AI 2.x, where the {@code ChatClient}'s {@code ToolCallingAdvisor} runs the tools, the advisor of the
 * {@code ChatClient}s the engine provides that hands it the tool callbacks watched by the engine's model
 * ({@link ArenaSpringChatModel#watch}), so that a tool that threw is sent as an error result as on 1.x. It runs
 * before the tool loop ({@code ToolCallingAdvisor} is at {@code HIGHEST_PRECEDENCE + 300}) and changes nothing else
 * the engine's model reads: the tools, their context, the model name, the temperature and the token limit.
 */
final class WatchingToolsAdvisor implements CallAdvisor {

    static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 250;

    private final ArenaSpringChatModel model;

    WatchingToolsAdvisor(ArenaSpringChatModel model) {
        this.model = model;
    }

    @Override
    public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
        if (!(request.prompt().getOptions() instanceof ToolCallingChatOptions options)
                || options.getToolCallbacks() == null || options.getToolCallbacks().isEmpty()) {
            return chain.nextCall(request);
        }
        List<ToolCallback> watched = new ArrayList<>();
        options.getToolCallbacks().forEach(callback -> watched.add(model.watch(callback)));
        ToolCallingChatOptions.Builder builder = ToolCallingChatOptions.builder().toolCallbacks(watched)
                .temperature(options.getTemperature()).maxTokens(options.getMaxTokens());
        if (options.getModel() != null) {
            builder.model(options.getModel());
        }
        if (options.getToolContext() != null && !options.getToolContext().isEmpty()) {
            builder.toolContext(options.getToolContext());
        }
        Prompt prompt = new Prompt(request.prompt().getInstructions(), builder.build());
        return chain.nextCall(request.mutate().prompt(prompt).build());
    }

    @Override
    public String getName() {
        return "Agent Arena tool watch";
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
