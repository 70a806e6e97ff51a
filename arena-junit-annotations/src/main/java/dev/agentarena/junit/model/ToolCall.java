package dev.agentarena.junit.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One tool call made by a model or an agent: what an assistant turn asks for, what a tool step of a
 * {@link Trajectory} executed, and what the {@code tool_calls} and {@code trajectory} scorers compare.
 *
 * @param name the tool's name
 * @param arguments the arguments, as JSON-like values ({@code Map}, {@code List}, {@code String}, numbers,
 *        booleans, {@code null})
 * @param id the id the model gave the call, which the tool's result answers; empty when the call has none (a call
 *        written by hand, or a dataset's expected step)
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record ToolCall(String name, Map<String, @Nullable Object> arguments, String id) {

    /** Validates and freezes the arguments. */
    public ToolCall {
        Objects.requireNonNull(name, "name");
        arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments == null ? Map.of() : arguments));
        id = id == null ? "" : id;
    }

    /** A call without an id. */
    public ToolCall(String name, Map<String, @Nullable Object> arguments) {
        this(name, arguments, "");
    }

    /** A call with these arguments and no id. */
    public static ToolCall of(String name, Map<String, ?> arguments) {
        return new ToolCall(name, new LinkedHashMap<>(arguments), "");
    }

    /** A copy with this id, in place of the id it had. */
    public ToolCall withId(String newId) {
        return new ToolCall(name, arguments, newId);
    }

    /** Whether the call carries the id a model gave it. */
    public boolean hasId() {
        return !id.isEmpty();
    }
}
