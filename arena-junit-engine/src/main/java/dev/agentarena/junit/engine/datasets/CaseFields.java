package dev.agentarena.junit.engine.datasets;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.platform.engine.TestTag;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.SimulatedUser;
import dev.agentarena.junit.engine.config.NearestName;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.internal.EvalCaseBuilder;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Trajectory;

/**
 * The fields of a dataset row, the same in every format, and the checks that turn one into an {@link EvalCase} or a
 * failed row naming every problem.
 *
 * <p>One instance reads the rows of one file ({@link RowReader} keeps it): what is the same for every row of the file
 * (its name, the tags it uses) is worked out once, not once per row of a million-row file.
 */
final class CaseFields {

    static final String ID = "id";
    static final String INPUT = "input";
    static final String REFERENCE = "reference";
    static final String EVAL_TYPE = "eval_type";
    static final String TAGS = "tags";
    static final String WEIGHT = "weight";
    static final String METADATA = "metadata";
    static final String OUTPUT = "output";
    static final String SCORER_OPTIONS = "scorer_options";
    static final String TOOL_RESULTS = "tool_results";
    static final String EXPECTED_TRAJECTORY = "expected_trajectory";
    static final String TURNS = "turns";
    static final String SIMULATED_USER = "simulated_user";
    static final String RELEVANT = "relevant";
    static final String REFERENCE_PASSAGES = "reference_passages";
    static final String TRAJECTORY = "trajectory";
    static final String RETRIEVED = "retrieved";

    static final List<String> KNOWN = List.of(ID, INPUT, REFERENCE, EVAL_TYPE, TAGS, WEIGHT, METADATA, OUTPUT,
            SCORER_OPTIONS, TOOL_RESULTS, EXPECTED_TRAJECTORY, TURNS, SIMULATED_USER, RELEVANT, REFERENCE_PASSAGES,
            TRAJECTORY, RETRIEVED);

    /** The places of the fields in {@link #KNOWN}: a row's fields are kept by them ({@link KnownFields}, {@link #row}). */
    private static final int AT_ID = 0;
    private static final int AT_INPUT = 1;
    private static final int AT_REFERENCE = 2;
    private static final int AT_EVAL_TYPE = 3;
    private static final int AT_TAGS = 4;
    private static final int AT_WEIGHT = 5;
    private static final int AT_METADATA = 6;
    private static final int AT_OUTPUT = 7;
    private static final int AT_SCORER_OPTIONS = 8;
    private static final int AT_TOOL_RESULTS = 9;
    private static final int AT_EXPECTED_TRAJECTORY = 10;
    private static final int AT_TURNS = 11;
    private static final int AT_SIMULATED_USER = 12;
    private static final int AT_RELEVANT = 13;
    private static final int AT_REFERENCE_PASSAGES = 14;
    private static final int AT_TRAJECTORY = 15;
    private static final int AT_RETRIEVED = 16;

    static {
        for (int i = 0; i < KNOWN.size(); i++) {
            if (known(KNOWN.get(i)) != i) {
                throw new AssertionError("CaseFields.known and KNOWN disagree on " + KNOWN.get(i));
            }
        }
    }

    /** How many distinct valid tags a file's {@link #validTags} remembers; tags beyond are checked every time. */
    private static final int REMEMBERED_TAGS = 1024;

    private final DatasetSource source;
    private final String fileName;
    /**
     * The valid tags seen in this file, each to itself: checking a tag ({@link TestTag#isValid}) cost more than the
     * rest of a row's fields together, and a file uses few tags over and over. Its rows share one string per tag.
     */
    private final Map<String, String> validTags = new HashMap<>();
    /** The tags of a row without any: not static, as a static array is state the architecture rules refuse. */
    private final String[] noTags = {};

    /** The checks for the rows of one file. */
    CaseFields(DatasetSource source) {
        this.source = source;
        this.fileName = source.fileName();
    }

    /** A row from a JSON-like node: a case, or a failed row listing what is wrong with it. */
    static DatasetRow toRow(JsonNode node, DatasetSource source, int line) {
        return new CaseFields(source).row(node, line, List.of());
    }

    /**
     * A row from a JSON-like node and the problems noted while parsing it (repeated keys, YAML aliases; see
     * {@link RowParser}): a case, or a failed row listing every problem.
     */
    static DatasetRow toRow(JsonNode node, DatasetSource source, int line, List<String> parseProblems) {
        return new CaseFields(source).row(node, line, parseProblems);
    }

    /** The id of a row without one of its own: file name and line, {@code tickets.jsonl:12}. */
    String derivedId(int line) {
        return fileName + ":" + line;
    }

    /**
     * A row of this file from a JSON-like node and the problems noted while parsing it: a case, or a failed row
     * listing every problem.
     */
    DatasetRow row(JsonNode node, int line, List<String> parseProblems) {
        DatasetLocation location = source.at(line);
        if (node == null || !node.isObject()) {
            // YAML reads a bare "-" as an empty string.
            boolean empty = node == null || node.isNull() || node.isTextual() && node.asText().isEmpty();
            String found = empty ? "an empty entry" : "a " + kind(node);
            List<String> problems = new ArrayList<>(parseProblems);
            problems.add("expected an object with fields " + String.join(", ", KNOWN) + ", found " + found);
            return DatasetRow.failed(derivedId(line), location + ": " + String.join("; ", problems), location);
        }
        List<String> problems = parseProblems.isEmpty() ? new ArrayList<>() : new ArrayList<>(parseProblems);
        // One pass over the row's fields, each known one kept by its place in KNOWN, instead of a lookup per field.
        JsonNode[] fields = new JsonNode[KNOWN.size()];
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String name = field.getKey();
            int known = known(name);
            if (known >= 0) {
                fields[known] = field.getValue();
            }
            else if (name.equals("<<")) {
                problems.add("YAML merge key '<<' is not supported: write the fields out");
            }
            else {
                problems.add(unknownField("field", name));
            }
        }
        return row(fields, location, line, problems);
    }

    /**
     * A row of this file from its fields, by their place in {@link #KNOWN} ({@code null} for a field it leaves out),
     * read without a problem ({@link KnownFields}): a case, or a failed row listing every problem.
     */
    DatasetRow row(JsonNode[] fields, int line) {
        return row(fields, source.at(line), line, new ArrayList<>());
    }

    /** A row from its known fields and the problems found so far. */
    private DatasetRow row(JsonNode[] fields, DatasetLocation location, int line, List<String> problems) {
        String id = id(fields[AT_ID], problems);
        if (id == null) {
            id = derivedId(line);
        }
        // the id as written, when its ends were stripped: a duplicate's error says why it is one
        String written = id.equals(text(fields[AT_ID])) ? null : text(fields[AT_ID]);
        Object input = value(fields[AT_INPUT]);
        if (input == null) {
            problems.add("no input: every case needs an 'input' field");
        }
        String evalType = evalType(fields[AT_EVAL_TYPE], problems);
        String[] tags = tags(fields[AT_TAGS], problems);
        double weight = weight(fields[AT_WEIGHT], problems);
        Map<String, Object> metadata = metadata(fields[AT_METADATA], problems);
        Map<String, Map<String, Object>> scorerOptions = scorerOptions(fields[AT_SCORER_OPTIONS], problems);
        Map<String, Object> toolResults = AgentFields.toolResults(fields[AT_TOOL_RESULTS], problems);
        List<ToolCall> expectedTrajectory = AgentFields.expectedTrajectory(fields[AT_EXPECTED_TRAJECTORY],
                problems);
        List<String> turns = AgentFields.turns(fields[AT_TURNS], problems);
        SimulatedUser simulatedUser = AgentFields.simulatedUser(fields[AT_SIMULATED_USER], problems);
        Map<String, Integer> relevant = RetrievalFields.relevant(fields[AT_RELEVANT], problems);
        List<String> referencePassages = RetrievalFields.referencePassages(fields[AT_REFERENCE_PASSAGES], problems);
        Trajectory recordedTrajectory = RecordedFields.trajectory(fields[AT_TRAJECTORY], problems);
        List<RetrievedPassage> recordedRetrieved = RecordedFields.retrieved(fields[AT_RETRIEVED], problems);
        if (!turns.isEmpty() && simulatedUser != null) {
            problems.add("a case is a scripted conversation (" + TURNS + ") or one with a simulated user ("
                    + SIMULATED_USER + "), not both: keep one");
        }
        if (!problems.isEmpty()) {
            return DatasetRow.failed(id, location + ": " + String.join("; ", problems), location)
                    .withWrittenId(written);
        }
        EvalCase evalCase = EvalCaseBuilder.of(id, input, value(fields[AT_REFERENCE])).tags(tags).weight(weight)
                .metadata(metadata).evalType(evalType).recordedOutput(value(fields[AT_OUTPUT]))
                .toolResults(toolResults).expectedTrajectory(expectedTrajectory).turns(turns)
                .simulatedUser(simulatedUser).scorerOptions(scorerOptions).relevant(relevant)
                .referencePassages(referencePassages).recorded(recordedTrajectory, recordedRetrieved, List.of())
                .build();
        return DatasetRow.of(evalCase, location).withWrittenId(written);
    }

    /** A field's text, or {@code null} when it is absent or not text. */
    private static String text(JsonNode node) {
        return node == null || !node.isTextual() ? null : node.asText();
    }

    /** The place of a field in {@link #KNOWN} (checked as the class loads), or -1 for a field cases do not have. */
    static int known(String name) {
        return switch (name) {
            case ID -> AT_ID;
            case INPUT -> AT_INPUT;
            case REFERENCE -> AT_REFERENCE;
            case EVAL_TYPE -> AT_EVAL_TYPE;
            case TAGS -> AT_TAGS;
            case WEIGHT -> AT_WEIGHT;
            case METADATA -> AT_METADATA;
            case OUTPUT -> AT_OUTPUT;
            case SCORER_OPTIONS -> AT_SCORER_OPTIONS;
            case TOOL_RESULTS -> AT_TOOL_RESULTS;
            case EXPECTED_TRAJECTORY -> AT_EXPECTED_TRAJECTORY;
            case TURNS -> AT_TURNS;
            case SIMULATED_USER -> AT_SIMULATED_USER;
            case RELEVANT -> AT_RELEVANT;
            case REFERENCE_PASSAGES -> AT_REFERENCE_PASSAGES;
            case TRAJECTORY -> AT_TRAJECTORY;
            case RETRIEVED -> AT_RETRIEVED;
            default -> -1;
        };
    }

    /** "unknown field 'refrence' (did you mean 'reference'?); known fields: ...". */
    static String unknownField(String what, String name) {
        String closest = NearestName.among(name.toLowerCase(), KNOWN, 2).orElse(null);
        return "unknown " + what + " '" + name + "'" + (closest == null ? "" : " (did you mean '" + closest + "'?)")
                + "; known " + what + "s: " + String.join(", ", KNOWN);
    }

    /** The row's own id, or {@code null} when it has none (then the derived one stands in). */
    private static String id(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual() && !node.isIntegralNumber()) {
            problems.add("id must be text, found a " + kind(node));
            return null;
        }
        String id = node.asText().strip();
        return id.isEmpty() ? null : id;
    }

    private static String evalType(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            problems.add("eval_type must be a scorer name, found a " + kind(node));
            return null;
        }
        return node.asText().strip();
    }

    /**
     * The valid tags, in order, repeats included ({@link EvalCaseBuilder#tags} keeps the first of each): an array, which
     * is what {@link EvalCaseBuilder#tags} takes.
     */
    private String[] tags(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return noTags;
        }
        if (node.isTextual()) {
            List<String> candidates = splitTags(node.asText());
            String[] tags = new String[candidates.size()];
            int count = 0;
            for (String tag : candidates) {
                count = addTag(tags, count, tag, problems);
            }
            return count == tags.length ? tags : Arrays.copyOf(tags, count);
        }
        if (!node.isArray()) {
            problems.add("tags must be a list of text, found a " + kind(node));
            return noTags;
        }
        // Elements that are not text first, then tags that are not valid: the order the problems are listed in.
        int size = node.size();
        for (int i = 0; i < size; i++) {
            if (!isTag(node.get(i))) {
                problems.add("tags must be text, found a " + kind(node.get(i)));
            }
        }
        String[] tags = new String[size];
        int count = 0;
        for (int i = 0; i < size; i++) {
            if (isTag(node.get(i))) {
                count = addTag(tags, count, node.get(i).asText().strip(), problems);
            }
        }
        return count == tags.length ? tags : Arrays.copyOf(tags, count);
    }

    private static boolean isTag(JsonNode element) {
        return element.isValueNode() && !element.isNull();
    }

    /** Adds a tag at {@code count} if it is valid (notes the problem if not) and answers the new count. */
    private int addTag(String[] tags, int count, String tag, List<String> problems) {
        if (tag.isEmpty()) {
            return count;
        }
        String valid = validTags.get(tag);
        if (valid != null) {
            tags[count] = valid;
            return count + 1;
        }
        if (TestTag.isValid(tag)) {
            if (validTags.size() < REMEMBERED_TAGS) {
                validTags.put(tag, tag);
            }
            tags[count] = tag;
            return count + 1;
        }
        problems.add("tag '" + tag + "' is not a valid JUnit tag (no whitespace, ',', '(', ')', '&', '|', '!')");
        return count;
    }

    /** Tags written in one string: separated by ';' or '|', as commas would clash with CSV. */
    static List<String> splitTags(String text) {
        List<String> tags = new ArrayList<>();
        for (String part : text.split("[;|]")) {
            if (!part.isBlank()) {
                tags.add(part.strip());
            }
        }
        return tags;
    }

    private static double weight(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return 1.0;
        }
        if (node.isNumber() && Double.isFinite(node.asDouble()) && node.asDouble() >= 0) {
            return node.asDouble();
        }
        problems.add("weight must be a number >= 0, found " + (node.isTextual() ? "'" + node.asText() + "'" : node));
        return 1.0;
    }

    private static Map<String, Object> metadata(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            problems.add("metadata must be an object, found a " + kind(node));
            return Map.of();
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        node.properties().forEach(entry -> metadata.put(entry.getKey(), value(entry.getValue())));
        return metadata;
    }

    /**
     * {@code scorer_options}: an object of scorers, each an object of options ({@code {"numeric": {"tolerance":
     * 0.5}}}), as {@code scorers.options} is in {@code arena.yaml}.
     */
    private static Map<String, Map<String, Object>> scorerOptions(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            problems.add(SCORER_OPTIONS + " must be an object of scorers, each an object of options "
                    + "({\"numeric\": {\"tolerance\": 0.5}}), found a " + kind(node));
            return Map.of();
        }
        Map<String, Map<String, Object>> options = new LinkedHashMap<>();
        node.properties().forEach(scorer -> {
            String name = scorer.getKey().strip();
            JsonNode values = scorer.getValue();
            if (name.isEmpty()) {
                problems.add(SCORER_OPTIONS + " names a blank scorer");
            }
            else if (!values.isObject()) {
                problems.add(SCORER_OPTIONS + "." + name + " must be an object of options, found a " + kind(values));
            }
            else {
                Map<String, Object> scorerValues = new LinkedHashMap<>();
                values.properties().forEach(option -> scorerValues.put(option.getKey(), value(option.getValue())));
                options.put(name, scorerValues);
            }
        });
        return options;
    }

    /** A node as a plain Java value: String, Number, Boolean, List or Map; {@code null} for null or absent. */
    static Object value(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        // Most values are text; converting those directly keeps a million-row dataset from paying for a full
        // databind round trip per field.
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isNumber()) {
            return node.numberValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        return Json.MAPPER.convertValue(node, Object.class);
    }

    static String kind(JsonNode node) {
        switch (node.getNodeType()) {
            case ARRAY:
                return "list";
            case OBJECT:
                return "object";
            case NUMBER:
                return "number";
            case BOOLEAN:
                return "boolean";
            case STRING:
                return "string";
            case NULL:
                return "null";
            default:
                return node.getNodeType().toString().toLowerCase();
        }
    }
}
