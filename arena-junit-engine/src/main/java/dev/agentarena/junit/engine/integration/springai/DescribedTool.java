package dev.agentarena.junit.engine.integration.springai;

import java.util.Map;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

import dev.agentarena.junit.engine.json.Json;

/**
 * A tool offered to a Spring AI model under evaluation that only describes itself: Spring AI sends tools as callbacks,
 * but the engine's caller runs the tools (the request goes with internal tool execution disabled), so calling it is a
 * mistake that says so.
 */
final class DescribedTool implements ToolCallback {

    private final ToolDefinition definition;
    private final String modelKey;

    private DescribedTool(ToolDefinition definition, String modelKey) {
        this.definition = definition;
        this.modelKey = modelKey;
    }

    /** The tool of an OpenAI function definition ({@code {"type":"function","function":{...}}}). */
    static DescribedTool of(Map<String, Object> definition, String modelKey) {
        Object function = definition.get("function");
        Map<?, ?> spec = function instanceof Map<?, ?> map ? map : definition;
        String name = String.valueOf(spec.get("name"));
        Object description = spec.get("description");
        Object parameters = spec.get("parameters");
        return new DescribedTool(ToolDefinition.builder().name(name)
                .description(description == null ? name : String.valueOf(description))
                .inputSchema(Json.write(parameters == null ? Map.of("type", "object") : parameters)).build(),
                modelKey);
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return definition;
    }

    @Override
    public String call(String toolInput) {
        throw new IllegalStateException(modelKey + ": tool " + definition.name() + " was offered to the model with "
                + "internal tool execution disabled; the engine's caller runs it");
    }
}
