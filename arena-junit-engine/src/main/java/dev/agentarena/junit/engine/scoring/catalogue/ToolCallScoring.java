package dev.agentarena.junit.engine.scoring.catalogue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.json.JsonValues;

/** The agent checks of the catalogue: which tools were called, in what order, with what arguments. */
final class ToolCallScoring {

    private ToolCallScoring() {
    }

    /** What {@code tool_calls} reads, for the reason of a case whose reference it cannot read. */
    private static final String TOOL_CALLS_NEEDS = "{\"tools\": [tool, ...], \"order\": \"any|in_order|exact\","
            + " \"arguments\": {tool: {argument: value}}} (tools or arguments)";

    static ScoreResult toolCalls(List<ToolCall> calls, Object expected) {
        if (!(expected instanceof Map<?, ?> spec)) {
            return CatalogueScorers.wrongShape("tool_calls", TOOL_CALLS_NEEDS, expected);
        }
        Object toolsField = spec.get("tools");
        Object argumentsField = spec.get("arguments");
        Object orderField = spec.get("order");
        String order = orderField == null ? "any" : String.valueOf(orderField);
        boolean readable = (toolsField != null || argumentsField != null) && !(toolsField instanceof Map)
                && (argumentsField == null || argumentsField instanceof Map)
                && Set.of("exact", "in_order", "any").contains(order);
        if (!readable) {
            return CatalogueScorers.wrongShape("tool_calls", TOOL_CALLS_NEEDS, expected);
        }
        List<String> called = new ArrayList<>();
        calls.forEach(call -> called.add(call.name()));
        List<Double> credits = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("called", called);

        if (toolsField != null) {
            List<String> tools = CatalogueScorers.stringList(toolsField);
            List<String> missing = multisetMinus(tools, called);
            List<String> extra = multisetMinus(called, tools);
            int[] alignment = lcs(tools, called, String::equals);
            List<String> outOfOrder = new ArrayList<>();
            int inOrder = 0;
            for (int i = 0; i < tools.size(); i++) {
                if (alignment[i] >= 0) {
                    inOrder++;
                }
            }
            // Called but not where the order wants them: present in the multiset, absent from the alignment.
            List<String> present = multisetMinus(tools, missing);
            List<String> aligned = new ArrayList<>();
            for (int i = 0; i < tools.size(); i++) {
                if (alignment[i] >= 0) {
                    aligned.add(tools.get(i));
                }
            }
            outOfOrder.addAll(multisetMinus(present, aligned));
            double credit;
            if (order.equals("any")) {
                credit = tools.isEmpty() ? 1.0 : (double) present.size() / tools.size();
            }
            else if (order.equals("in_order")) {
                credit = tools.isEmpty() ? 1.0 : (double) inOrder / tools.size();
            }
            else {
                int longest = Math.max(tools.size(), called.size());
                credit = longest == 0 ? 1.0 : (double) inOrder / longest;
            }
            credits.add(credit);
            if (!missing.isEmpty()) {
                problems.add("missing " + CatalogueScorers.quoted(missing));
            }
            if (!order.equals("any") && !outOfOrder.isEmpty()) {
                problems.add("out of order " + CatalogueScorers.quoted(outOfOrder));
            }
            if (!extra.isEmpty()) {
                problems.add((order.equals("exact") ? "extra " : "also called ") + CatalogueScorers.quoted(extra));
            }
            detail.put("missing", missing);
            detail.put("extra", extra);
            detail.put("out_of_order", order.equals("any") ? List.of() : outOfOrder);
        }
        if (argumentsField != null) {
            int expectedArguments = 0;
            int matchedArguments = 0;
            List<String> wrong = new ArrayList<>();
            for (Map.Entry<?, ?> tool : ((Map<?, ?>) argumentsField).entrySet()) {
                String name = String.valueOf(tool.getKey());
                Map<?, ?> wanted = tool.getValue() instanceof Map ? (Map<?, ?>) tool.getValue() : Map.of();
                expectedArguments += wanted.size();
                // Of several calls to the tool, the one that fits best is judged.
                int best = -1;
                List<String> bestWrong = List.of(name + " not called");
                for (ToolCall call : calls) {
                    if (!call.name().equals(name)) {
                        continue;
                    }
                    List<String> mismatches = argumentMismatches(name, wanted, call.arguments());
                    int matched = wanted.size() - mismatches.size();
                    if (matched > best) {
                        best = matched;
                        bestWrong = mismatches;
                    }
                }
                matchedArguments += Math.max(0, best);
                wrong.addAll(bestWrong);
            }
            credits.add(expectedArguments == 0 ? 1.0 : (double) matchedArguments / expectedArguments);
            if (!wrong.isEmpty()) {
                problems.add("arguments: " + String.join(", ", wrong.subList(0, Math.min(3, wrong.size())))
                        + (wrong.size() > 3 ? " and " + (wrong.size() - 3) + " more" : ""));
            }
            detail.put("argument_mismatches", wrong);
        }
        double score = credits.stream().mapToDouble(Double::doubleValue).average().orElse(1.0);
        boolean passed = problems.stream().noneMatch(p -> !p.startsWith("also called "));
        String reason = problems.isEmpty() ? "tools called as expected (" + order + ")"
                : CatalogueScorers.abbreviate(String.join("; ", problems), 300);
        return ScoreResult.of(Math.min(1.0, score), passed && score == 1.0).withReason(reason).withDetail(detail);
    }

    private static List<String> argumentMismatches(String tool, Map<?, ?> wanted, Map<String, Object> actual) {
        List<String> mismatches = new ArrayList<>();
        for (Map.Entry<?, ?> argument : wanted.entrySet()) {
            String name = String.valueOf(argument.getKey());
            if (!actual.containsKey(name)) {
                mismatches.add(tool + "." + name + " missing");
            }
            else if (!JsonValues.equivalent(argument.getValue(), actual.get(name))) {
                mismatches.add(tool + "." + name + " is " + CatalogueScorers.abbreviate(Json.write(actual.get(name)),
                        40) + ", expected " + CatalogueScorers.abbreviate(Json.write(argument.getValue()), 40));
            }
        }
        return mismatches;
    }

    /** The items of {@code from} not matched one-for-one by an item of {@code remove}. */
    private static List<String> multisetMinus(List<String> from, List<String> remove) {
        Map<String, Integer> counts = new HashMap<>();
        remove.forEach(item -> counts.merge(item, 1, Integer::sum));
        List<String> rest = new ArrayList<>();
        for (String item : from) {
            if (counts.getOrDefault(item, 0) > 0) {
                counts.merge(item, -1, Integer::sum);
            }
            else {
                rest.add(item);
            }
        }
        return rest;
    }

    /**
     * A longest common subsequence of the two lists: for each item of {@code expected} the index of the item of
     * {@code actual} it is aligned with, or -1.
     */
    private static <E, A> int[] lcs(List<E> expected, List<A> actual, BiPredicate<E, A> matches) {
        int n = expected.size();
        int m = actual.size();
        int[][] lengths = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lengths[i][j] = matches.test(expected.get(i), actual.get(j)) ? lengths[i + 1][j + 1] + 1
                        : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
            }
        }
        int[] alignment = new int[n];
        java.util.Arrays.fill(alignment, -1);
        int i = 0;
        int j = 0;
        while (i < n && j < m) {
            if (matches.test(expected.get(i), actual.get(j)) && lengths[i][j] == lengths[i + 1][j + 1] + 1) {
                alignment[i++] = j++;
            }
            else if (lengths[i + 1][j] >= lengths[i][j + 1]) {
                i++;
            }
            else {
                j++;
            }
        }
        return alignment;
    }
}
