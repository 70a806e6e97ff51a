package dev.agentarena.junit.engine.datasets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The fields of a dataset row that say what should be retrieved, {@code relevant} and {@code reference_passages}:
 * every wrong shape becomes a problem naming the field (and the id or element) at fault, so the row fails with its
 * file and line. A row without them costs one null check each.
 */
final class RetrievalFields {

    private static final String RELEVANT_SHAPE = "a list of passage ids ([\"doc-7\", \"doc-9\"]) or an object of "
            + "ids and grades ({\"doc-7\": 2, \"doc-9\": 1})";

    private RetrievalFields() {
    }

    /** {@code relevant}: id -> grade (1 for a listed id), in the row's order; empty when absent. */
    static Map<String, Integer> relevant(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return Map.of();
        }
        Map<String, Integer> grades = new LinkedHashMap<>();
        if (node.isArray()) {
            int index = 0;
            for (JsonNode element : node) {
                String at = CaseFields.RELEVANT + "[" + index++ + "]";
                if (!element.isTextual()) {
                    problems.add(at + " must be a passage id as text, found " + found(element)
                            + (element.isNumber() ? " (write \"" + element.asText() + "\")" : ""));
                }
                else {
                    add(grades, element.textValue(), 1, at, problems);
                }
            }
            return grades;
        }
        if (!node.isObject()) {
            problems.add(CaseFields.RELEVANT + " must be " + RELEVANT_SHAPE + ", found " + found(node));
            return Map.of();
        }
        node.properties().forEach(entry -> {
            String at = CaseFields.RELEVANT + "." + entry.getKey();
            Integer grade = grade(entry.getValue());
            if (grade == null) {
                JsonNode value = entry.getValue();
                problems.add(at + " must be a grade, a whole number 0 or more (0: judged not relevant), found "
                        + (value.isNumber() ? value.asText() : found(value)));
            }
            else {
                add(grades, entry.getKey(), grade, at, problems);
            }
        });
        return grades;
    }

    private static void add(Map<String, Integer> grades, String id, int grade, String at, List<String> problems) {
        if (id.isBlank()) {
            problems.add(at + " is a blank passage id");
        }
        else if (grades.putIfAbsent(id, grade) != null) {
            problems.add(at + ": passage id '" + shown(id) + "' is given twice");
        }
    }

    /** A whole number from 0 to {@link Integer#MAX_VALUE} (2.0 counts as 2), else {@code null}. */
    private static Integer grade(JsonNode value) {
        if (!value.isNumber()) {
            return null;
        }
        if (value.isIntegralNumber()) {
            return value.canConvertToInt() && value.intValue() >= 0 ? value.intValue() : null;
        }
        double number = value.doubleValue();
        return number >= 0 && number <= Integer.MAX_VALUE && number == Math.rint(number) ? (int) number : null;
    }

    /** {@code reference_passages}: the texts, each not blank, in order; empty when absent. */
    static List<String> referencePassages(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            problems.add(CaseFields.REFERENCE_PASSAGES + " must be a list of passage texts, found " + found(node));
            return List.of();
        }
        List<String> texts = new ArrayList<>(node.size());
        int index = 0;
        for (JsonNode element : node) {
            String at = CaseFields.REFERENCE_PASSAGES + "[" + index++ + "]";
            if (!element.isTextual()) {
                problems.add(at + " must be a passage's text, found " + found(element));
            }
            else if (element.textValue().isBlank()) {
                problems.add(at + " is blank: a blank text would be found in every passage");
            }
            else {
                texts.add(element.textValue());
            }
        }
        return texts;
    }

    private static String found(JsonNode node) {
        String kind = CaseFields.kind(node);
        return (kind.startsWith("o") ? "an " : "a ") + kind;
    }

    /** An id for a message: its first 100 characters, control characters as '?'. */
    private static String shown(String id) {
        String start = id.length() > 100 ? id.substring(0, 100) + "…" : id;
        return start.replaceAll("\\p{Cntrl}", "?");
    }
}
