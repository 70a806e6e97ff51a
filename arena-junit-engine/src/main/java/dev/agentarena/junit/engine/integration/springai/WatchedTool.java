package dev.agentarena.junit.engine.integration.springai;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.ai.tool.metadata.ToolMetadata;
import org.springframework.ai.tool.method.MethodToolCallback;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.AgentFailure;

/**
 * A tool callback that notes whether each of its calls threw, and otherwise behaves as the tool it wraps: Spring AI's
 * tool results carry no error flag, so the engine's {@code ChatModel} learns from this which results are errors. A
 * call whose arguments the tool cannot take (not a JSON object, a required parameter left out, a value Spring AI cannot
 * bind to a {@code @Tool} method's parameter) is the model's failure ({@link AgentFailure}), not an error of the case.
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
        return watch(toolInput, () -> tool.call(toolInput));
    }

    @Override
    public String call(String toolInput, ToolContext toolContext) {
        return watch(toolInput, () -> tool.call(toolInput, toolContext));
    }

    private String watch(String toolInput, java.util.function.Supplier<String> call) {
        String name = tool.getToolDefinition().name();
        Optional<String> refused = refusedArguments(toolInput);
        if (refused.isPresent()) {
            throw new AgentFailure(AgentFailure.Kind.TOOL_CALL, "The model called tool '" + name + "' with arguments "
                    + "it cannot take: " + refused.get() + " (sent " + AgentFailure.abbreviate(String.valueOf(toolInput)) + ").");
        }
        try {
            String result = call.get();
            outcomes.add(new Outcome(name, false));
            return result;
        }
        catch (ToolExecutionException e) {
            outcomes.add(new Outcome(name, true));
            throw e;
        }
        catch (IllegalArgumentException e) {
            // a @Tool method's own exceptions come wrapped (ToolExecutionException); a bare one is Spring AI binding
            // the model's arguments to its parameters (a wrong type, null for a primitive), but for its ToolContext
            if (!(tool instanceof MethodToolCallback) || String.valueOf(e.getMessage()).contains("ToolContext")) {
                throw e;
            }
            throw new AgentFailure(AgentFailure.Kind.TOOL_CALL, "The model called tool '" + name + "' with "
                    + "arguments it cannot take (Spring AI: " + AgentFailure.abbreviate(String.valueOf(e.getMessage()))
                    + "; sent " + AgentFailure.abbreviate(String.valueOf(toolInput))
                    + ").", e);
        }
    }

    /**
     * Why the tool cannot take the model's arguments, before Spring AI tries: they are not a JSON object, or leave
     * out (or send null for) a parameter the tool's input schema requires. Empty when the schema has nothing to say.
     */
    private Optional<String> refusedArguments(String toolInput) {
        JsonNode arguments;
        try {
            arguments = Json.MAPPER.readTree(toolInput == null ? "" : toolInput);
        }
        catch (JsonProcessingException e) {
            arguments = null;
        }
        if (arguments == null || !arguments.isObject()) {
            return Optional.of("they are not a JSON object");
        }
        JsonNode required;
        try {
            required = Json.MAPPER.readTree(tool.getToolDefinition().inputSchema()).path("required");
        }
        catch (JsonProcessingException | RuntimeException e) {
            // a schema of the team's that is not JSON: Spring AI decides
            return Optional.empty();
        }
        List<String> missing = new ArrayList<>();
        for (JsonNode parameter : required) {
            JsonNode value = arguments.get(parameter.asText());
            if (value == null || value.isNull()) {
                missing.add(parameter.asText());
            }
        }
        return missing.isEmpty() ? Optional.empty()
                : Optional.of("no value for the required parameter" + (missing.size() == 1 ? " " : "s ")
                        + String.join(", ", missing));
    }
}
