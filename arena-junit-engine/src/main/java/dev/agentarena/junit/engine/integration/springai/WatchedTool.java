package dev.agentarena.junit.engine.integration.springai;

import java.util.List;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.ai.tool.metadata.ToolMetadata;

/**
 * A tool callback that notes whether each of its calls threw, and otherwise behaves as the tool it wraps: Spring AI's
 * tool results carry no error flag, so the engine's {@code ChatModel} learns from this which results are errors.
 */
final class WatchedTool implements ToolCallback {

    /** One call of a tool: its name and whether it threw. */
    record Outcome(String tool, boolean failed) {
    }

    private final ToolCallback tool;
    private final List<Outcome> outcomes;

    WatchedTool(ToolCallback tool, List<Outcome> outcomes) {
        this.tool = tool;
        this.outcomes = outcomes;
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return tool.getToolDefinition();
    }

    @Override
    public ToolMetadata getToolMetadata() {
        return tool.getToolMetadata();
    }

    @Override
    public String call(String toolInput) {
        return watch(() -> tool.call(toolInput));
    }

    @Override
    public String call(String toolInput, ToolContext toolContext) {
        return watch(() -> tool.call(toolInput, toolContext));
    }

    private String watch(java.util.function.Supplier<String> call) {
        String name = tool.getToolDefinition().name();
        try {
            String result = call.get();
            outcomes.add(new Outcome(name, false));
            return result;
        }
        catch (ToolExecutionException e) {
            outcomes.add(new Outcome(name, true));
            throw e;
        }
    }
}
