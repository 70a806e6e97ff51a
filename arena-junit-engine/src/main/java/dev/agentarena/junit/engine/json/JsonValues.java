package dev.agentarena.junit.engine.json;

import java.util.Comparator;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Equality of JSON-like values as a grader sees it: numbers compare by value ({@code 1 == 1.0}), everything else
 * structurally.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class JsonValues {

    private static final Comparator<JsonNode> NUMERIC = JsonValues::compareNumeric;

    private JsonValues() {
    }

    /** A JSON tree of any JSON-like Java value ({@code Map}, {@code List}, {@code String}, number, ...). */
    public static JsonNode tree(Object value) {
        return value instanceof JsonNode ? (JsonNode) value : Json.MAPPER.valueToTree(value);
    }

    /** Whether two JSON-like values are equal, comparing numbers by value. */
    public static boolean equivalent(Object expected, Object actual) {
        return equivalent(tree(expected), tree(actual), true);
    }

    /** Whether two JSON trees are equal, comparing numbers by value and strings with or without case. */
    public static boolean equivalent(JsonNode expected, JsonNode actual, boolean caseSensitive) {
        Comparator<JsonNode> comparator = caseSensitive ? NUMERIC : (a, b) -> {
            if (a.isTextual() && b.isTextual()) {
                return a.textValue().equalsIgnoreCase(b.textValue()) ? 0 : 1;
            }
            return compareNumeric(a, b);
        };
        return expected.equals(comparator, actual);
    }

    private static int compareNumeric(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0 ? 0 : 1;
        }
        return a.equals(b) ? 0 : 1;
    }
}
