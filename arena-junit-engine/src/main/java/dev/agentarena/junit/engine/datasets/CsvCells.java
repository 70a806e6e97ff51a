package dev.agentarena.junit.engine.datasets;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;

/**
 * How CSV cells, which are all text, map to the case fields.
 *
 * <ul>
 *   <li>An empty cell is an absent field.</li>
 *   <li>{@code input}, {@code reference}, {@code output} and {@code metadata.<key>}: a cell holding a JSON object or
 *       array is that value; anything else, numbers included, stays text.</li>
 *   <li>{@code tags}: separated by {@code ;} or {@code |}.</li>
 *   <li>{@code weight}: a number.</li>
 *   <li>{@code metadata}: a JSON object; columns {@code metadata.<key>} add entries (and win over it).</li>
 *   <li>{@code scorer_options}: a JSON object; columns {@code scorer_options.<scorer>.<option>} add options (and win
 *       over it), each cell read like {@code reference}.</li>
 *   <li>{@code tool_results}, {@code expected_trajectory}, {@code turns}, {@code simulated_user}: the JSON value, as in the other formats; a
 *       cell that is not JSON fails its row, naming the column.</li>
 *   <li>{@code relevant}: a JSON list or object as in the other formats, or ids separated by {@code ;}, each with an
 *       optional grade after {@code =}: {@code doc-7=2; doc-9}.</li>
 *   <li>{@code reference_passages}: a JSON list of texts, or else the whole cell is one passage.</li>
 * </ul>
 */
final class CsvCells {

    static final String METADATA_COLUMN_PREFIX = CaseFields.METADATA + ".";
    static final String OPTIONS_COLUMN_PREFIX = CaseFields.SCORER_OPTIONS + ".";

    private CsvCells() {
    }

    /**
     * The problems of a header, or {@code null} when every column is known and named once: a repeated column would
     * keep only its last cell.
     */
    static String headerProblems(List<String> columns) {
        List<String> problems = new ArrayList<>();
        Map<String, Integer> firstColumn = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            String column = columns.get(i);
            Integer first = firstColumn.putIfAbsent(column, i + 1);
            if (first != null) {
                problems.add("column '" + column + "' appears twice (columns " + first + " and " + (i + 1) + ")");
                continue;
            }
            boolean metadataEntry = column.startsWith(METADATA_COLUMN_PREFIX)
                    && column.length() > METADATA_COLUMN_PREFIX.length();
            if (column.startsWith(OPTIONS_COLUMN_PREFIX)) {
                if (optionColumn(column) == null) {
                    problems.add("column '" + column + "' must name a scorer and an option: "
                            + OPTIONS_COLUMN_PREFIX + "<scorer>.<option>");
                }
            }
            else if (!metadataEntry && !CaseFields.KNOWN.contains(column)) {
                problems.add(CaseFields.unknownField("column", column) + ", or metadata.<key> for a metadata entry, "
                        + "or " + OPTIONS_COLUMN_PREFIX + "<scorer>.<option> for a scorer option");
            }
        }
        return problems.isEmpty() ? null : "bad header: " + String.join("; ", problems);
    }

    static DatasetRow toRow(Map<String, String> cells, CaseFields fields, int line) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode row = nodes.objectNode();
        ObjectNode metadataEntries = nodes.objectNode();
        ObjectNode optionEntries = nodes.objectNode();
        List<String> problems = new ArrayList<>();
        cells.forEach((column, cell) -> {
            if (cell == null || cell.isEmpty()) {
                return;
            }
            if (column.startsWith(METADATA_COLUMN_PREFIX)) {
                metadataEntries.set(column.substring(METADATA_COLUMN_PREFIX.length()), jsonOrText(cell));
                return;
            }
            String[] option = optionColumn(column);
            if (option != null) {
                JsonNode scorer = optionEntries.get(option[0]);
                ObjectNode values = scorer == null ? optionEntries.putObject(option[0]) : (ObjectNode) scorer;
                values.set(option[1], jsonOrText(cell));
                return;
            }
            switch (column) {
                case CaseFields.TAGS:
                    ArrayNode tags = row.putArray(CaseFields.TAGS);
                    CaseFields.splitTags(cell).forEach(tags::add);
                    break;
                case CaseFields.WEIGHT:
                    row.set(CaseFields.WEIGHT, number(cell.strip()));
                    break;
                case CaseFields.ID:
                    // stripped as the cases' fields are read, which keep the id as written for its errors
                    row.put(column, cell);
                    break;
                case CaseFields.EVAL_TYPE:
                    row.put(column, cell.strip());
                    break;
                case CaseFields.RELEVANT:
                    row.set(column, relevant(cell, problems));
                    break;
                case CaseFields.REFERENCE_PASSAGES:
                    JsonNode passages = jsonOrText(cell);
                    row.set(column, passages.isArray() ? passages : nodes.arrayNode().add(cell));
                    break;
                case CaseFields.TOOL_RESULTS:
                case CaseFields.EXPECTED_TRAJECTORY:
                case CaseFields.TURNS:
                case CaseFields.SIMULATED_USER:
                    json(column, cell, problems).ifPresent(value -> row.set(column, value));
                    break;
                default:
                    row.set(column, jsonOrText(cell));
                    break;
            }
        });
        if (!metadataEntries.isEmpty()) {
            JsonNode metadata = row.get(CaseFields.METADATA);
            if (metadata == null || metadata.isObject()) {
                ObjectNode merged = metadata == null ? nodes.objectNode() : (ObjectNode) metadata;
                merged.setAll(metadataEntries);
                row.set(CaseFields.METADATA, merged);
            }
        }
        if (!optionEntries.isEmpty()) {
            JsonNode options = row.get(CaseFields.SCORER_OPTIONS);
            if (options == null || options.isObject()) {
                ObjectNode merged = options == null ? nodes.objectNode() : (ObjectNode) options;
                optionEntries.properties().forEach(scorer -> {
                    JsonNode existing = merged.get(scorer.getKey());
                    if (existing != null && existing.isObject()) {
                        ((ObjectNode) existing).setAll((ObjectNode) scorer.getValue());
                    }
                    else {
                        merged.set(scorer.getKey(), scorer.getValue());
                    }
                });
                row.set(CaseFields.SCORER_OPTIONS, merged);
            }
        }
        return fields.row(row, line, problems);
    }

    /** A cell that must hold JSON; a problem naming the column when it does not. */
    private static Optional<JsonNode> json(String column, String cell, List<String> problems) {
        try {
            return Optional.of(Json.MAPPER.readTree(cell.strip()));
        }
        catch (JsonProcessingException e) {
            problems.add(column + " must hold JSON, as in the other formats; found '"
                    + abbreviated(cell.strip()) + "'");
            return Optional.empty();
        }
    }

    /**
     * A {@code relevant} cell: JSON as in the other formats, or {@code doc-7=2; doc-9} (grade 1 without {@code =}) as
     * the object of grades the other formats write; a grade that is not a number stays text, for the field's error.
     */
    private static JsonNode relevant(String cell, List<String> problems) {
        String trimmed = cell.strip();
        if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
            return json(CaseFields.RELEVANT, cell, problems).orElse(NullNode.getInstance());
        }
        ObjectNode grades = JsonNodeFactory.instance.objectNode();
        for (String part : trimmed.split(";")) {
            if (part.isBlank()) {
                continue;
            }
            int equals = part.lastIndexOf('=');
            String id = (equals < 0 ? part : part.substring(0, equals)).strip();
            JsonNode grade = equals < 0 ? JsonNodeFactory.instance.numberNode(1)
                    : number(part.substring(equals + 1).strip());
            if (grades.has(id)) {
                problems.add(CaseFields.RELEVANT + "." + id + ": passage id '" + abbreviated(id) + "' is given twice");
            }
            grades.set(id, grade);
        }
        return grades;
    }

    private static String abbreviated(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    /** {@code scorer_options.numeric.tolerance}: the scorer and the option; {@code null} for any other column. */
    private static String[] optionColumn(String column) {
        if (!column.startsWith(OPTIONS_COLUMN_PREFIX)) {
            return null;
        }
        String rest = column.substring(OPTIONS_COLUMN_PREFIX.length());
        int dot = rest.indexOf('.');
        if (dot <= 0 || dot == rest.length() - 1) {
            return null;
        }
        return new String[] {rest.substring(0, dot), rest.substring(dot + 1)};
    }

    private static JsonNode number(String cell) {
        try {
            return JsonNodeFactory.instance.numberNode(Double.parseDouble(cell));
        }
        catch (NumberFormatException e) {
            return JsonNodeFactory.instance.textNode(cell);
        }
    }

    private static JsonNode jsonOrText(String cell) {
        String trimmed = cell.strip();
        if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
            try {
                JsonNode parsed = Json.MAPPER.readTree(trimmed);
                if (parsed.isContainerNode()) {
                    return parsed;
                }
            }
            catch (JsonProcessingException e) {
                // "[draft] please reply" is text that happens to start with a bracket.
            }
        }
        return JsonNodeFactory.instance.textNode(cell);
    }
}
