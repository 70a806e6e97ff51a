package dev.agentarena.junit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import org.apiguardian.api.API;

/**
 * One tool call made by a model or an agent.
 *
 * @param name the tool's name
 * @param arguments the arguments, as JSON-like values
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record ToolCall(String name, Map<String, Object> arguments) {

    /** Validates and freezes the arguments. */
    public ToolCall {
        Objects.requireNonNull(name, "name");
        arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments == null ? Map.of() : arguments));
    }

    /** A call with these arguments. */
    public static ToolCall of(String name, Map<String, ?> arguments) {
        return new ToolCall(name, new LinkedHashMap<>(arguments));
    }
}
