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
 * call whose arguments the tool cannot take (not a JSON object, a value Spring AI cannot bind to a {@code @Tool}
 * method's parameter, such as none for an {@code int}) is the model's failure ({@link AgentFailure}), not an error of
 * the case.
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
        if (!isJsonObject(toolInput)) {
            // Spring AI cannot read them either: it would fail the ChatClient
            throw refused(name, "they are not a JSON object", toolInput, null);
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
            // the model's arguments to its parameters (null for a primitive, a value it cannot convert), but for its
            // ToolContext. A missing value Spring AI can bind (null for an object) runs the tool, as in production.
            if (!(tool instanceof MethodToolCallback) || String.valueOf(e.getMessage()).contains("ToolContext")) {
                throw e;
            }
            throw refused(name, missingRequired(toolInput).orElse("Spring AI: "
                    + AgentFailure.abbreviate(String.valueOf(e.getMessage()))), toolInput, e);
        }
    }

    private static AgentFailure refused(String tool, String why, String toolInput, Throwable cause) {
        String message = "The model called tool '" + tool + "' with arguments it cannot take: " + why + " (sent "
                + AgentFailure.abbreviate(String.valueOf(toolInput)) + ").";
        return cause == null ? new AgentFailure(AgentFailure.Kind.TOOL_CALL, message)
                : new AgentFailure(AgentFailure.Kind.TOOL_CALL, message, cause);
    }

    private static boolean isJsonObject(String toolInput) {
        try {
            JsonNode arguments = Json.MAPPER.readTree(toolInput == null ? "" : toolInput);
            return arguments != null && arguments.isObject();
        }
        catch (JsonProcessingException e) {
            return false;
        }
    }

    /**
     * Which parameters the tool's input schema requires and the model left out (or sent null for), to name in the
     * failure: {@code no value for the required parameter orderId}. Empty when none, or the schema is not JSON.
     */
    private Optional<String> missingRequired(String toolInput) {
        try {
            JsonNode arguments = Json.MAPPER.readTree(toolInput);
            List<String> missing = new ArrayList<>();
            for (JsonNode parameter : Json.MAPPER.readTree(tool.getToolDefinition().inputSchema()).path("required")) {
                JsonNode value = arguments.get(parameter.asText());
                if (value == null || value.isNull()) {
                    missing.add(parameter.asText());
                }
            }
            return missing.isEmpty() ? Optional.empty()
                    : Optional.of("no value for the required parameter" + (missing.size() == 1 ? " " : "s ")
                            + String.join(", ", missing));
        }
        catch (JsonProcessingException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
