package dev.agentarena.junit.engine.integration.springai;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.DefaultToolExecutionEligibilityPredicate;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionEligibilityPredicate;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

import dev.agentarena.junit.engine.models.AgentFailure;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelRequest;

/**
 * The Spring AI {@code ChatModel} the engine hands to a task (the model under evaluation) or to a scorer (the
 * judge), directly or inside a {@code ChatClient}: the team's Spring AI code runs against the eval's model, and the
 * engine times, prices, records, replays and budgets every call.
 *
 * <p>It runs the tool loop as Spring AI's own chat models do: when the model asks for tools and the prompt's
 * {@code ToolCallingChatOptions} leave internal tool execution on (the default), Spring AI's {@code ToolCallingManager}
 * runs them in the app (an exception becomes the message the model reads, through its
 * {@code ToolExecutionExceptionProcessor}), and the conversation with their results goes back to the model through
 * the engine, until the model answers or a tool returns directly. Each model call goes through the engine, so the
 * case's trajectory holds every step; a tool that failed is sent as an error result
 * ({@link dev.agentarena.junit.model.Message#toolError}), so the trajectory counts it.
 */
final class ArenaSpringChatModel implements ChatModel {

    private static final ToolCallingManager TOOLS = ToolCallingManager.builder().build();
    private static final ToolExecutionEligibilityPredicate TOOL_CALLS = new DefaultToolExecutionEligibilityPredicate();

    private final String modelKey;
    private final Function<ModelRequest, Completion> calls;
    /** The ids of the calls whose tool failed, in any conversation through this model (one case's). */
    private final Set<String> failedCalls = ConcurrentHashMap.newKeySet();

    ArenaSpringChatModel(String modelKey, Function<ModelRequest, Completion> calls) {
        this.modelKey = modelKey;
        this.calls = calls;
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        Prompt current = prompt;
        while (true) {
            ChatResponse response = callOnce(current);
            if (!(current.getOptions() instanceof ToolCallingChatOptions)
                    || !TOOL_CALLS.isToolExecutionRequired(current.getOptions(), response)) {
                return response;
            }
            ToolExecutionResult result = executeTools(current, response);
            if (result.returnDirect()) {
                return ChatResponse.builder().from(response).generations(ToolExecutionResult.buildGenerations(result))
                        .build();
            }
            current = new Prompt(result.conversationHistory(), current.getOptions());
        }
    }

    private ChatResponse callOnce(Prompt prompt) {
        List<ToolDefinition> tools = prompt.getOptions() instanceof ToolCallingChatOptions options
                ? TOOLS.resolveToolDefinitions(options) : List.of();
        ModelRequest request = SpringAiMessages.modelRequest(prompt, tools, failedCalls);
        return SpringAiMessages.chatResponse(calls.apply(request), modelKey, SpringAiMessages.toolCallsIn(request));
    }

    /**
     * Runs the tools with Spring AI's manager, each callback watched so that the calls whose tool threw are known by
     * id: the manager runs the calls in the order the model asked for them.
     */
    private ToolExecutionResult executeTools(Prompt prompt, ChatResponse response) {
        ToolCallingChatOptions options = (ToolCallingChatOptions) prompt.getOptions();
        List<WatchedTool.Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
        List<ToolCallback> watched = new ArrayList<>();
        if (options.getToolCallbacks() != null) {
            for (ToolCallback callback : options.getToolCallbacks()) {
                watched.add(new WatchedTool(callback, outcomes));
            }
        }
        ToolCallingChatOptions copy = options.copy();
        copy.setToolCallbacks(watched);
        List<AssistantMessage.ToolCall> asked = response.getResults().stream().map(Generation::getOutput)
                .filter(AssistantMessage::hasToolCalls).findFirst().map(AssistantMessage::getToolCalls)
                .orElse(List.of());
        List<String> offered = TOOLS.resolveToolDefinitions(copy).stream().map(ToolDefinition::name).toList();
        for (AssistantMessage.ToolCall call : asked) {
            if (!offered.contains(call.name())) {
                // Spring AI would fail the ChatClient with an IllegalStateException: the model's mistake, scored
                throw new AgentFailure(AgentFailure.Kind.TOOL_CALL, "The model called tool '" + call.name()
                        + "', which the ChatClient does not offer (its tools: " + String.join(", ", offered) + ").");
            }
        }
        ToolExecutionResult result = TOOLS.executeToolCalls(new Prompt(prompt.getInstructions(), copy), response);
        // a tool the options name (resolved by Spring AI, not watched) has no outcome: skip its calls
        int next = 0;
        for (AssistantMessage.ToolCall call : asked) {
            if (next < outcomes.size() && outcomes.get(next).tool().equals(call.name())) {
                if (outcomes.get(next).failed()) {
                    failedCalls.add(call.id());
                }
                next++;
            }
        }
        return result;
    }

    @Override
    public String toString() {
        return "ArenaSpringChatModel[" + modelKey + "]";
    }
}
