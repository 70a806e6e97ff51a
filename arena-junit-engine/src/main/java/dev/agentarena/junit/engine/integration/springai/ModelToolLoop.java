package dev.agentarena.junit.engine.integration.springai;

import java.util.ArrayList;
import java.util.List;

import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.DefaultToolExecutionEligibilityPredicate;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolExecutionEligibilityPredicate;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.ToolCallback;

/**
 * The tool loop of a Spring AI 1.x chat model, and the 1.x API it needs (internal tool execution, mutable options),
 * which 2.0 removed: loaded only when {@link SpringAiIntegration#modelsRunTools()} says the class path is 1.x.
 *
 * <p>When the model asks for tools and the prompt's {@code ToolCallingChatOptions} leave internal tool execution on
 * (the default), Spring AI's {@code ToolCallingManager} runs them in the app (an exception becomes the message the
 * model reads, through its {@code ToolExecutionExceptionProcessor}), and the conversation with their results goes
 * back to the model, until it answers or a tool returns directly.
 */
final class ModelToolLoop {

    private static final ToolExecutionEligibilityPredicate TOOL_CALLS = new DefaultToolExecutionEligibilityPredicate();

    private ModelToolLoop() {
    }

    static ChatResponse call(ArenaSpringChatModel model, Prompt prompt) {
        Prompt current = prompt;
        while (true) {
            ChatResponse response = model.callOnce(current);
            if (!(current.getOptions() instanceof ToolCallingChatOptions)
                    || !TOOL_CALLS.isToolExecutionRequired(current.getOptions(), response)) {
                return response;
            }
            ToolExecutionResult result = executeTools(model, current, response);
            if (result.returnDirect()) {
                return ChatResponse.builder().from(response).generations(ToolExecutionResult.buildGenerations(result))
                        .build();
            }
            current = new Prompt(result.conversationHistory(), current.getOptions());
        }
    }

    /** Runs the tools with the model's Spring AI manager, each callback watched by the model. */
    private static ToolExecutionResult executeTools(ArenaSpringChatModel model, Prompt prompt,
            ChatResponse response) {
        ToolCallingChatOptions options = (ToolCallingChatOptions) prompt.getOptions();
        List<ToolCallback> watched = new ArrayList<>();
        if (options.getToolCallbacks() != null) {
            options.getToolCallbacks().forEach(callback -> watched.add(model.watch(callback)));
        }
        ToolCallingChatOptions copy = options.copy();
        copy.setToolCallbacks(watched);
        ToolExecutionResult result = model.tools().executeToolCalls(new Prompt(prompt.getInstructions(), copy), response);
        List<Message> history = result.conversationHistory();
        model.settle(history.isEmpty() ? null : history.get(history.size() - 1));
        return result;
    }

    /** Options that offer the tools with internal tool execution off: the model answers with its tool calls. */
    static ToolCallingChatOptions.Builder withoutInternalExecution(ToolCallingChatOptions.Builder options) {
        return options.internalToolExecutionEnabled(false);
    }
}
