package dev.agentarena.junit.engine.labels;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.Decimals;

/**
 * A labelling sheet: one row per output (eval, dataset, case, model, repeat) with the case's input and reference,
 * the output and its {@link OutputDigest}, each scorer's score, verdict and reason, and empty columns for a person's
 * verdict, score and note. It exists so that any run's outputs can be handed to a person to grade, and the filled
 * sheet read back as a labels file ({@link LabelFile}). Rows are kept in memory until written: a sheet is for the
 * outputs a person will read.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class LabelSheet {

    static final String EVAL = "eval";
    static final String DATASET = "dataset";
    static final String CASE = "case";
    static final String MODEL = "model";
    static final String REPEAT = "repeat";
    static final String INPUT = "input";
    static final String OUTPUT = "output";
    static final String REFERENCE = "reference";
    static final String OUTPUT_DIGEST = "output_digest";
    static final String HUMAN_VERDICT = "human_verdict";
    static final String HUMAN_SCORE = "human_score";
    static final String HUMAN_NOTE = "human_note";

    /** The file a run writes when {@code arena.labels.export} is set, without its extension. */
    public static final String FILE_STEM = "labels-to-fill";

    private final Map<List<Object>, Row> rows = new LinkedHashMap<>();
    private final Set<String> scorers = new LinkedHashSet<>();

    /** The formats a sheet is written in. */
    public enum Format {
        /** Comma-separated values with a header row (RFC 4180 quoting). */
        CSV("csv"),
        /** One JSON object per line. */
        JSONL("jsonl");

        private final String extension;

        Format(String extension) {
            this.extension = extension;
        }

        /** The file's extension, without the dot. */
        public String extension() {
            return extension;
        }
    }

    /**
     * One scorer's result on one output.
     *
     * @param eval the eval
     * @param dataset the dataset
     * @param caseId the case id
     * @param model the model key
     * @param repeat the repeat
     * @param scorer the score name
     * @param score the score, or {@code null}
     * @param passed the verdict, or {@code null}
     * @param reason the scorer's reason
     * @param output the output as {@code results.jsonl} holds it, {@code null} when the task failed
     * @param input the input (the prompt as sent), or {@code null} when unknown
     * @param reference the reference, or {@code null} when none
     */
    public record Result(String eval, String dataset, String caseId, String model, int repeat, String scorer,
            Double score, Boolean passed, String reason, String output, String input, String reference) {
    }

    /** Adds a result to its output's row; results of no case (an eval that cannot run) are left out. */
    public synchronized void add(Result result) {
        if (result.caseId() == null || result.caseId().isEmpty()) {
            return;
        }
        Row row = rows.computeIfAbsent(Arrays.asList(result.eval(), result.dataset(), result.caseId(), result.model(),
                result.repeat()), key -> new Row(result));
        row.fill(result);
        scorers.add(result.scorer());
        row.scores.put(result.scorer(), result);
    }

    /** How many outputs it holds. */
    public synchronized int size() {
        return rows.size();
    }

    /** The sheet in a format. */
    public synchronized String render(Format format) {
        List<String> columns = columns();
        StringBuilder text = new StringBuilder();
        if (format == Format.CSV) {
            appendCsv(text, columns);
        }
        for (Row row : rows.values()) {
            Map<String, Object> values = row.values(scorers);
            if (format == Format.CSV) {
                List<String> cells = new ArrayList<>();
                for (String column : columns) {
                    Object value = values.get(column);
                    cells.add(value == null ? "" : value instanceof Double number ? Decimals.shortest(number)
                            : value.toString());
                }
                appendCsv(text, cells);
            }
            else {
                ObjectNode node = Json.MAPPER.createObjectNode();
                for (String column : columns) {
                    Object value = values.get(column);
                    if (value == null) {
                        node.putNull(column);
                    }
                    else if (value instanceof Double number) {
                        node.put(column, number);
                    }
                    else if (value instanceof Integer number) {
                        node.put(column, number);
                    }
                    else {
                        node.put(column, value.toString());
                    }
                }
                try {
                    text.append(Json.MAPPER.writeValueAsString(node)).append('\n');
                }
                catch (JsonProcessingException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return text.toString();
    }

    private List<String> columns() {
        List<String> columns = new ArrayList<>(List.of(EVAL, DATASET, CASE, MODEL, REPEAT, INPUT, OUTPUT, REFERENCE,
                OUTPUT_DIGEST));
        for (String scorer : scorers) {
            columns.add(scorer + ".score");
            columns.add(scorer + ".verdict");
            columns.add(scorer + ".reason");
        }
        columns.addAll(List.of(HUMAN_VERDICT, HUMAN_SCORE, HUMAN_NOTE));
        return columns;
    }

    /**
     * A cell a spreadsheet would run as a formula ({@code =}, {@code +}, {@code -}, {@code @}, a tab or CR first: a
     * model's output {@code =HYPERLINK(...)} in the sheet a person opens) with a {@code '} before it, as OWASP's CSV
     * injection advice has it; {@link #unprotected} takes it off when the filled sheet is read back.
     */
    static String protectedCell(String cell) {
        return !cell.isEmpty() && FORMULA_STARTS.indexOf(cell.charAt(0)) >= 0 ? "'" + cell : cell;
    }

    /** A cell as it was before {@link #protectedCell}: what the sheet's author wrote, for keys and digests. */
    static String unprotected(String cell) {
        return cell.length() > 1 && cell.charAt(0) == '\'' && FORMULA_STARTS.indexOf(cell.charAt(1)) >= 0
                ? cell.substring(1) : cell;
    }

    private static final String FORMULA_STARTS = "=+-@\t\r";

    private static void appendCsv(StringBuilder text, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            String cell = protectedCell(cells.get(i));
            if (i > 0) {
                text.append(',');
            }
            if (cell.indexOf(',') >= 0 || cell.indexOf('"') >= 0 || cell.indexOf('\n') >= 0
                    || cell.indexOf('\r') >= 0 || !cell.equals(cell.strip())) {
                text.append('"').append(cell.replace("\"", "\"\"")).append('"');
            }
            else {
                text.append(cell);
            }
        }
        text.append("\r\n");
    }

    /** The verdict as the sheet writes it: {@code pass}, {@code fail}, or empty. */
    static String verdict(Boolean passed) {
        return passed == null ? null : passed ? "pass" : "fail";
    }

    /** One output's row. */
    private static final class Row {
        final Result first;
        String input;
        String reference;
        String output;
        final Map<String, Result> scores = new LinkedHashMap<>();

        Row(Result first) {
            this.first = first;
        }

        void fill(Result result) {
            input = input != null ? input : result.input();
            reference = reference != null ? reference : result.reference();
            output = output != null ? output : result.output();
        }

        Map<String, Object> values(Set<String> scorers) {
            Map<String, Object> values = new LinkedHashMap<>();
            values.put(EVAL, first.eval());
            values.put(DATASET, first.dataset());
            values.put(CASE, first.caseId());
            values.put(MODEL, first.model());
            values.put(REPEAT, first.repeat());
            values.put(INPUT, input);
            values.put(OUTPUT, output);
            values.put(REFERENCE, reference);
            values.put(OUTPUT_DIGEST, OutputDigest.of(output));
            for (String scorer : scorers) {
                Result result = scores.get(scorer);
                if (result != null) {
                    values.put(scorer + ".score", result.score());
                    values.put(scorer + ".verdict", verdict(result.passed()));
                    values.put(scorer + ".reason", result.reason());
                }
            }
            return values;
        }
    }

    /** A format by name, as {@code arena.labels.export} or the command's {@code --format} gives it. */
    public static Format format(String name) {
        return switch (name.strip().toLowerCase(Locale.ROOT)) {
            case "csv" -> Format.CSV;
            case "jsonl" -> Format.JSONL;
            default -> throw new IllegalArgumentException("unknown format '" + name + "': csv or jsonl");
        };
    }
}
