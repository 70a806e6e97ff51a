package dev.agentarena.junit.engine.json;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The arguments of a tool call, which chat libraries carry as a JSON string, as the map a
 * {@link dev.agentarena.junit.model.ToolCall} holds, and back.
 *
 * <p>Invalid JSON is the model's mistake, not the transport's: it is kept under {@code _raw}, so a scorer sees a wrong
 * call rather than the case erroring.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ToolArguments {

    /** Where arguments that are not a JSON object are kept. */
    public static final String RAW = "_raw";

    /**
     * How deep arguments may nest (maps and lists in one another): far beyond any tool's schema, and within what the
     * JSON of a results line (which holds them a few levels down) may nest for Jackson.
     */
    public static final int MAX_DEPTH = 500;

    private ToolArguments() {
    }

    /** The arguments of a JSON string; empty for a blank one. */
    public static Map<String, Object> parse(String json) {
        if (json == null || json.isBlank()) {
            return Map.of();
        }
        JsonNode parsed;
        try {
            parsed = Json.MAPPER.readTree(json);
        }
        catch (JsonProcessingException e) {
            return Map.of(RAW, json);
        }
        if (parsed == null || parsed.isMissingNode() || parsed.isNull()) {
            return Map.of();
        }
        if (!parsed.isObject()) {
            return Map.of(RAW, json);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> map = Json.MAPPER.convertValue(parsed, LinkedHashMap.class);
        return map;
    }

    /**
     * How deep the arguments nest, counted without recursion (a hand-made value may nest deeper than any stack),
     * stopping past {@link #MAX_DEPTH}: 1 for a map of scalars.
     */
    public static int depth(Map<String, ?> arguments) {
        int deepest = 0;
        ArrayDeque<Object[]> open = new ArrayDeque<>();
        open.push(new Object[] {arguments, 1});
        while (!open.isEmpty() && deepest <= MAX_DEPTH) {
            Object[] next = open.pop();
            int depth = (Integer) next[1];
            deepest = Math.max(deepest, depth);
            Iterable<?> children = next[0] instanceof Map<?, ?> map ? map.values()
                    : next[0] instanceof Iterable<?> list ? list : List.of();
            for (Object child : children) {
                if (child instanceof Map<?, ?> || child instanceof Iterable<?>) {
                    open.push(new Object[] {child, depth + 1});
                }
            }
        }
        return deepest;
    }

    /** The JSON string of the arguments; arguments kept raw are given back as they came. */
    public static String write(Map<String, Object> arguments) {
        if (arguments.size() == 1 && arguments.get(RAW) instanceof String) {
            return (String) arguments.get(RAW);
        }
        return Json.write(arguments);
    }
}
