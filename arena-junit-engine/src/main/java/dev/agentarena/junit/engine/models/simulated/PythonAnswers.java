package dev.agentarena.junit.engine.models.simulated;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Python answers to {@code code_exec} cases, whose reference holds assertions such as
 * {@code assert add(2, 3) == 5}.
 *
 * <p>The passing answer defines each asserted function by a table of the asserted calls, which is all a simulated
 * model can know; the failing one raises {@code NotImplementedError}. Assertions of other shapes than
 * {@code assert f(args) == value}, {@code assert f(args)} and {@code assert not f(args)} get no definition, so
 * the "right" answer then fails too.
 */
final class PythonAnswers {

    private record Call(String function, String arguments, String expected) {
    }

    private PythonAnswers() {
    }

    static String passing(String assertions) {
        Map<String, List<Call>> byFunction = calls(assertions);
        StringBuilder code = new StringBuilder();
        code.append("def _key(*args, **kwargs):\n    return repr((args, sorted(kwargs.items())))\n");
        for (Map.Entry<String, List<Call>> function : byFunction.entrySet()) {
            String table = "_" + function.getKey().toUpperCase(Locale.ROOT) + "_ANSWERS";
            code.append("\n\n").append(table).append(" = {\n");
            for (Call call : function.getValue()) {
                code.append("    _key(").append(call.arguments()).append("): ").append(call.expected()).append(",\n");
            }
            code.append("}\n\n\ndef ").append(function.getKey()).append("(*args, **kwargs):\n    return ")
                    .append(table).append("[_key(*args, **kwargs)]\n");
        }
        return code.toString();
    }

    static String failing(String assertions) {
        StringBuilder code = new StringBuilder();
        for (String function : calls(assertions).keySet()) {
            code.append(code.length() == 0 ? "" : "\n\n").append("def ").append(function)
                    .append("(*args, **kwargs):\n    raise NotImplementedError(\"").append(function)
                    .append(" is not implemented yet\")\n");
        }
        return code.length() == 0 ? "raise NotImplementedError(\"not implemented yet\")\n" : code.toString();
    }

    private static Map<String, List<Call>> calls(String assertions) {
        Map<String, List<Call>> byFunction = new LinkedHashMap<>();
        for (String line : assertions.split("\\R")) {
            Call call = parse(line.strip());
            if (call != null) {
                byFunction.computeIfAbsent(call.function(), name -> new ArrayList<>()).add(call);
            }
        }
        return byFunction;
    }

    private static Call parse(String line) {
        if (!line.startsWith("assert ")) {
            return null;
        }
        String rest = line.substring("assert ".length()).strip();
        boolean negated = rest.startsWith("not ");
        if (negated) {
            rest = rest.substring("not ".length()).strip();
        }
        int open = rest.indexOf('(');
        if (open <= 0 || !rest.substring(0, open).strip().matches("[A-Za-z_]\\w*")) {
            return null;
        }
        int close = matching(rest, open);
        if (close < 0) {
            return null;
        }
        String function = rest.substring(0, open).strip();
        String arguments = rest.substring(open + 1, close);
        String tail = stripMessage(rest.substring(close + 1)).strip();
        if (tail.isEmpty()) {
            return new Call(function, arguments, negated ? "False" : "True");
        }
        if (negated) {
            return null;
        }
        if (tail.startsWith("==")) {
            return new Call(function, arguments, tail.substring(2).strip());
        }
        if (tail.startsWith("is ")) {
            return new Call(function, arguments, tail.substring(3).strip());
        }
        return null;
    }

    /** The index of the parenthesis closing the one at {@code open}, skipping string literals. */
    private static int matching(String text, int open) {
        int close = topLevel(text, open, true);
        return close >= 0 && text.charAt(close) == ')' ? close : -1;
    }

    /** Drops an assertion message: the text after a top-level comma. */
    private static String stripMessage(String tail) {
        int comma = topLevel(tail, 0, false);
        return comma < 0 ? tail : tail.substring(0, comma);
    }

    /**
     * Scans Python source from {@code start}, skipping string literals and tracking bracket depth: the index of the
     * bracket that closes the one at {@code start} ({@code closing}), or of the first comma outside any bracket.
     */
    private static int topLevel(String text, int start, boolean closing) {
        int depth = 0;
        char quote = 0;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                }
                else if (c == quote) {
                    quote = 0;
                }
            }
            else if (c == '"' || c == '\'') {
                quote = c;
            }
            else if (c == '(' || c == '[' || c == '{') {
                depth++;
            }
            else if (c == ')' || c == ']' || c == '}') {
                depth--;
                if (closing && depth == 0) {
                    return i;
                }
            }
            else if (!closing && c == ',' && depth == 0) {
                return i;
            }
        }
        return -1;
    }
}
