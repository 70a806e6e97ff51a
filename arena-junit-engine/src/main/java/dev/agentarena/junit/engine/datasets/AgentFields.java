package dev.agentarena.junit.engine.datasets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.SimulatedUser;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.model.ToolCall;

/**
 * The fields of a dataset row that script an agent, {@code tool_results}, {@code expected_trajectory},
 * {@code turns} and {@code simulated_user}: kept apart from {@link CaseFields} because each has a nested shape with its own checks, and every
 * wrong shape becomes a problem naming the field (and the step) at fault, so the row fails with its file and line.
 */
final class AgentFields {

    private static final String TOOL_RESULTS_SHAPE = "an object of tool names, each with the result the tool returns "
            + "({\"lookup_order\": {\"status\": \"shipped\"}})";
    private static final String STEP_SHAPE = "a tool name or a step {\"tool\": \"<name>\", \"arguments\": {...}}";
    private static final String TRAJECTORY_SHAPE = "a list of steps, each " + STEP_SHAPE;
    private static final Set<String> STEP_KEYS = Set.of("tool", "name", "arguments");
    private static final List<String> USER_KEYS = List.of("goal", "persona", "max_turns", "stop", "model");
    private static final String USER_SHAPE = "an object {\"goal\": \"...\", \"persona\": \"...\", \"max_turns\": 5, "
            + "\"stop\": \"...\", \"model\": \"...\"} (only goal is required)";

    private AgentFields() {
    }

    /** {@code tool_results}: tool name -> any JSON value; empty when absent. */
    static Map<String, Object> toolResults(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            problems.add(CaseFields.TOOL_RESULTS + " must be " + TOOL_RESULTS_SHAPE + ", found "
                    + found(node));
            return Map.of();
        }
        Map<String, Object> results = new LinkedHashMap<>();
        node.properties().forEach(entry -> {
            String tool = entry.getKey().strip();
            if (tool.isEmpty()) {
                problems.add(CaseFields.TOOL_RESULTS + " names a blank tool");
            }
            else {
                results.put(tool, CaseFields.value(entry.getValue()));
            }
        });
        return results;
    }

    /**
     * {@code expected_trajectory}: a list of steps, each a tool name ({@code "lookup_order"}: that tool, any
     * arguments) or {@code {"tool": name, "arguments": {...}}} ({@code name} is accepted for {@code tool}; arguments
     * may also be a JSON object written as text, as the OpenAI API sends them), as the trajectory scorers read a
     * reference; {@code null} when absent, an empty list when the case expects no tool call.
     */
    static List<ToolCall> expectedTrajectory(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            problems.add(CaseFields.EXPECTED_TRAJECTORY + " must be " + TRAJECTORY_SHAPE + ", found "
                    + found(node));
            return null;
        }
        List<ToolCall> steps = new ArrayList<>();
        int index = 0;
        for (JsonNode step : node) {
            ToolCall call = step(step, CaseFields.EXPECTED_TRAJECTORY + "[" + index++ + "]", problems);
            if (call != null) {
                steps.add(call);
            }
        }
        return steps;
    }

    private static ToolCall step(JsonNode step, String where, List<String> problems) {
        if (step.isTextual()) {
            if (step.asText().isBlank()) {
                problems.add(where + " must be the tool's name, found a blank string");
                return null;
            }
            return new ToolCall(step.asText().strip(), Map.of());
        }
        if (!step.isObject()) {
            problems.add(where + " must be " + STEP_SHAPE + ", found " + found(step));
            return null;
        }
        int before = problems.size();
        step.fieldNames().forEachRemaining(key -> {
            if (!STEP_KEYS.contains(key)) {
                problems.add(where + ": unknown key '" + key + "'; a step has tool (or name) and arguments");
            }
        });
        JsonNode tool = step.get("tool");
        JsonNode name = step.get("name");
        if (tool != null && name != null) {
            problems.add(where + " gives both 'tool' and 'name': keep one");
        }
        JsonNode toolName = tool != null ? tool : name;
        if (toolName == null || !toolName.isTextual() || toolName.asText().isBlank()) {
            problems.add(where + ".tool must be the tool's name, found "
                    + (toolName == null ? "none" : toolName.isTextual() ? "a blank string" : found(toolName)));
        }
        Map<String, Object> arguments = arguments(step.get("arguments"), where, problems);
        if (problems.size() > before) {
            return null;
        }
        return new ToolCall(toolName.asText().strip(), arguments);
    }

    private static Map<String, Object> arguments(JsonNode node, String where, List<String> problems) {
        JsonNode object = node;
        if (node != null && node.isTextual()) {
            try {
                object = Json.MAPPER.readTree(node.asText());
            }
            catch (JsonProcessingException e) {
                problems.add(where + ".arguments must be an object, found a string that is not JSON");
                return Map.of();
            }
        }
        Map<String, Object> arguments = new LinkedHashMap<>();
        if (object == null || object.isNull()) {
            return arguments;
        }
        if (!object.isObject()) {
            problems.add(where + ".arguments must be an object, found " + found(object));
            return arguments;
        }
        object.properties().forEach(entry -> arguments.put(entry.getKey(), CaseFields.value(entry.getValue())));
        return arguments;
    }

    /** "a list", "an object": the kind of a node with its article. */
    private static String found(JsonNode node) {
        String kind = CaseFields.kind(node);
        return (kind.startsWith("o") ? "an " : "a ") + kind;
    }

    /** {@code turns}: a list of user turns, each text; empty when absent. */
    static List<String> turns(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            problems.add(CaseFields.TURNS + " must be a list of user turns, each text, found "
                    + found(node));
            return List.of();
        }
        List<String> turns = new ArrayList<>();
        int index = 0;
        for (JsonNode turn : node) {
            if (turn.isTextual()) {
                turns.add(turn.asText());
            }
            else {
                problems.add(CaseFields.TURNS + "[" + index + "] must be text, found " + found(turn));
            }
            index++;
        }
        return turns;
    }

    /**
     * {@code simulated_user}: {@code {"goal", "persona", "max_turns", "stop", "model"}}, only the goal required;
     * {@code null} when absent. Every wrong key or value is a problem naming {@code simulated_user.<key>}.
     */
    static SimulatedUser simulatedUser(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return null;
        }
        String field = CaseFields.SIMULATED_USER;
        if (!node.isObject()) {
            problems.add(field + " must be " + USER_SHAPE + ", found " + found(node));
            return null;
        }
        int before = problems.size();
        node.fieldNames().forEachRemaining(key -> {
            if (!USER_KEYS.contains(key)) {
                problems.add(field + ": unknown key '" + key + "'; a simulated user has " + String.join(", ",
                        USER_KEYS));
            }
        });
        String goal = text(node, "goal", problems);
        if (goal == null && problems.size() == before) {
            problems.add(field + ".goal is required: what the user wants from the conversation");
        }
        String persona = text(node, "persona", problems);
        String stop = text(node, "stop", problems);
        String model = text(node, "model", problems);
        Integer maxTurns = null;
        JsonNode turns = node.get("max_turns");
        if (turns != null && !turns.isNull()) {
            if (turns.canConvertToExactIntegral() && turns.isNumber() && turns.asLong() >= 1
                    && turns.asLong() <= Integer.MAX_VALUE) {
                maxTurns = turns.asInt();
            }
            else {
                problems.add(field + ".max_turns must be a whole number >= 1, found "
                        + (turns.isNumber() ? turns.asText() : found(turns)));
            }
        }
        if (problems.size() > before) {
            return null;
        }
        try {
            return SimulatedUser.of(goal).withPersona(persona).withMaxTurns(maxTurns).withStop(stop).withModel(model);
        }
        catch (IllegalArgumentException e) {
            // the stop is not a regular expression
            problems.add(field + ".stop: " + e.getMessage());
            return null;
        }
    }

    /** A text value of the simulated user, {@code null} when absent; a blank goal or another kind is a problem. */
    private static String text(JsonNode user, String key, List<String> problems) {
        JsonNode value = user.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual() || key.equals("goal") && value.asText().isBlank()) {
            problems.add(CaseFields.SIMULATED_USER + "." + key + " must be " + (key.equals("goal") ? "non-blank " : "")
                    + "text, found " + (value.isTextual() ? "a blank string" : found(value)));
            return null;
        }
        return value.asText();
    }
}
