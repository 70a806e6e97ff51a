package dev.agentarena.junit.engine.integration.springai;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
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
 * <p>It runs tools where the Spring AI on the class path runs them. On 1.x a chat model runs the tool loop itself
 * ({@link ModelToolLoop}, loaded only there). On 2.x a chat model only answers, with its tool calls, and the
 * {@code ChatClient}'s {@code ToolCallingAdvisor} runs the loop, calling this model once per step. Either way each
 * model call goes through the engine, so the case's trajectory holds every step; a tool that threw (its callback
 * watched by {@link WatchedTool}, from the loop or from {@link WatchingToolsAdvisor}) has its result sent as an error
 * ({@link dev.agentarena.junit.model.Message#toolError}), so the trajectory counts it.
 */
final class ArenaSpringChatModel implements ChatModel {

    /** Runs and describes tools when the application gives no manager of its own. */
    static final ToolCallingManager TOOLS = ToolCallingManager.builder().build();

    private final String modelKey;
    private final Function<ModelRequest, Completion> calls;
    private final boolean runsTools;
    private final ToolCallingManager tools;
    /**
     * The results of the calls whose tool failed, in any conversation through this model (one case's), each by
     * {@link SpringAiMessages#resultKey}: by its id, tool and text, since a model may give two calls one id (local
     * servers do, within an answer and from turn to turn) and a chat memory may drop earlier messages.
     */
    private final Set<String> failedCalls = ConcurrentHashMap.newKeySet();
    /** The tool calls watched since the model last asked for tools, in the order they ran. */
    private final List<WatchedTool.Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());

    /** A model that runs tools as the chat models of the Spring AI on the class path do. */
    ArenaSpringChatModel(String modelKey, Function<ModelRequest, Completion> calls) {
        this(modelKey, calls, TOOLS);
    }

    /** A model that runs tools as the chat models of the Spring AI on the class path do, with this manager. */
    ArenaSpringChatModel(String modelKey, Function<ModelRequest, Completion> calls, ToolCallingManager tools) {
        this(modelKey, calls, SpringAiIntegration.modelsRunTools(), tools);
    }

    /** @param runsTools whether the model runs the tool loop itself, as 1.x chat models do */
    ArenaSpringChatModel(String modelKey, Function<ModelRequest, Completion> calls, boolean runsTools) {
        this(modelKey, calls, runsTools, TOOLS);
    }

    private ArenaSpringChatModel(String modelKey, Function<ModelRequest, Completion> calls, boolean runsTools,
            ToolCallingManager tools) {
        this.modelKey = modelKey;
        this.calls = calls;
        this.runsTools = runsTools;
        this.tools = tools;
    }

    /** The manager that describes and (on 1.x) runs the prompt's tools. */
    ToolCallingManager tools() {
        return tools;
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        return runsTools ? ModelToolLoop.call(this, prompt) : callOnce(prompt);
    }

    /**
     * Tool-calling options, empty: a 2.x {@code ChatClient} builds each prompt's options from these and keeps the
     * request's tools only when they can carry them. {@code ChatModel.getOptions()} is 2.x's, so no {@code @Override}
     * (1.x has no such method, and nothing calls this there).
     */
    public ChatOptions getOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    /** One call of the model: the prompt as sent, its answer with any tool calls. */
    ChatResponse callOnce(Prompt prompt) {
        List<org.springframework.ai.chat.messages.Message> messages = prompt.getInstructions();
        settle(messages.isEmpty() ? null : messages.get(messages.size() - 1));
        List<ToolDefinition> tools = prompt.getOptions() instanceof ToolCallingChatOptions options
                ? this.tools.resolveToolDefinitions(options) : List.of();
        ModelRequest request = SpringAiMessages.modelRequest(prompt, tools, failedCalls);
        ChatResponse response = SpringAiMessages.chatResponse(calls.apply(request), modelKey,
                SpringAiMessages.toolCallsIn(request));
        if (prompt.getOptions() instanceof ToolCallingChatOptions) {
            refuseToolsNotOffered(response, tools);
        }
        return response;
    }

    /**
     * Fails the case as the model's own ({@link AgentFailure}) when the model called a tool the prompt does not offer:
     * Spring AI's tool loop (the model's on 1.x, the {@code ChatClient}'s advisor on 2.x) would throw a bare
     * {@code IllegalStateException}, an error of the case.
     */
    private static void refuseToolsNotOffered(ChatResponse response, List<ToolDefinition> tools) {
        List<String> offered = tools.stream().map(ToolDefinition::name).toList();
        for (var generation : response.getResults()) {
            for (AssistantMessage.ToolCall call : generation.getOutput().getToolCalls()) {
                if (!offered.contains(call.name())) {
                    throw new AgentFailure(AgentFailure.Kind.TOOL_CALL, "The model called tool '" + call.name()
                            + "', which the ChatClient does not offer (its tools: " + String.join(", ", offered)
                            + ").");
                }
            }
        }
    }

    /** The callback, watched: whether each of its calls threw is noted for the conversation's next model call. */
    ToolCallback watch(ToolCallback callback) {
        return new WatchedTool(callback, outcomes);
    }

    /**
     * Matches the watched tool calls to the results the tools sent (the last message, when it holds results: they
     * ran in that order) and notes those that failed; the watched calls are forgotten either way (no results: a new
     * turn). A tool the options only name (resolved by Spring AI, not watched) has no outcome: its results are skipped.
     */
    void settle(org.springframework.ai.chat.messages.Message last) {
        List<WatchedTool.Outcome> ran;
        synchronized (outcomes) {
            ran = List.copyOf(outcomes);
            outcomes.clear();
        }
        if (!(last instanceof ToolResponseMessage results)) {
            return;
        }
        int next = 0;
        for (ToolResponseMessage.ToolResponse result : results.getResponses()) {
            if (next < ran.size() && ran.get(next).tool().equals(result.name())) {
                if (ran.get(next).failed()) {
                    failedCalls.add(SpringAiMessages.resultKey(result));
                }
                next++;
            }
        }
    }

    @Override
    public String toString() {
        return "ArenaSpringChatModel[" + modelKey + "]";
    }
}
