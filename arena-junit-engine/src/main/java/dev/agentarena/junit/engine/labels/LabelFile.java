package dev.agentarena.junit.engine.labels;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.datasets.DatasetFiles;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.datasets.DatasetSource;
import dev.agentarena.junit.engine.datasets.DatasetStream;

/**
 * Reads a labels file: the labelling sheet ({@link LabelSheet}) filled in by a person, or any file with its key
 * columns, in every dataset format (JSON Lines, JSON, YAML, CSV), with the datasets' readers so that every problem is
 * named at its file and line. It exists so that a person's grades come back into the run in whatever format the team
 * labels in.
 *
 * <p>A row is a label when it has a {@code human_verdict} ({@code pass} or {@code fail}) or a {@code human_score}
 * (0 to 1), which agree when both are given (a pass is a score of 0.5 or more); other rows are outputs nobody labelled
 * yet, and are skipped. Its output is known by
 * {@code output_digest}, else by the digest of its {@code output}; with neither it applies to any output.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class LabelFile {

    /** The columns a label is keyed and read by. */
    static final List<String> KEY_COLUMNS = List.of(LabelSheet.EVAL, LabelSheet.CASE, LabelSheet.MODEL,
            LabelSheet.OUTPUT_DIGEST, LabelSheet.HUMAN_VERDICT, LabelSheet.HUMAN_SCORE, LabelSheet.HUMAN_NOTE);

    /** The sheet's other columns, which a labels file may keep. */
    static final Set<String> SHEET_COLUMNS = Set.of(LabelSheet.REPEAT, LabelSheet.DATASET, LabelSheet.INPUT,
            LabelSheet.OUTPUT, LabelSheet.REFERENCE, "case_id");

    private static final int MAX_PROBLEMS = 10;

    /** The least score that is a pass, as {@link HumanLabel#passed} reads a score alone. */
    static final double PASS_SCORE = 0.5;

    private LabelFile() {
    }

    /**
     * Every label of a file.
     *
     * @param defaultEval the eval of rows without an {@code eval} column (the eval that declares the file), or
     *        {@code null} when every row must name its eval
     * @throws ConfigurationException naming each bad row's file and line (at most ten), and how many there were
     */
    public static List<HumanLabel> read(DatasetSource source, String defaultEval) {
        List<HumanLabel> labels = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        int bad = 0;
        try (DatasetStream rows = DatasetFiles.openPlain(source)) {
            while (rows.hasNext()) {
                DatasetRow row = rows.next();
                String where = row.location().map(Object::toString).orElse(source.displayName());
                List<String> rowProblems = new ArrayList<>();
                HumanLabel label = null;
                if (row.error().isPresent()) {
                    rowProblems.add(row.error().get());
                }
                else {
                    label = label(row.fields().orElseThrow(), defaultEval, where, rowProblems);
                }
                if (!rowProblems.isEmpty()) {
                    bad++;
                    if (problems.size() < MAX_PROBLEMS) {
                        rowProblems.forEach(problem -> problems.add(problem.startsWith(where) ? problem
                                : where + ": " + problem));
                    }
                }
                else if (label != null) {
                    labels.add(label);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigurationException("Labels file '" + source.displayName() + "' (" + source.description()
                    + ") has " + bad + " bad row"
                    + (bad == 1 ? "" : "s") + ":\n  " + String.join("\n  ", problems)
                    + (bad > problems.size() ? "\n  ..." : "")
                    + "\nA label has eval, case, model, output_digest (or output), human_verdict (pass or fail), "
                    + "human_score (0 to 1) and human_note; see docs/guides/judges.md");
        }
        return labels;
    }

    /** The row's label; {@code null} when nobody labelled it, or when it has problems (added to the list). */
    private static HumanLabel label(JsonNode fields, String defaultEval, String where, List<String> problems) {
        for (Iterator<String> names = fields.fieldNames(); names.hasNext();) {
            String name = names.next();
            if (!KEY_COLUMNS.contains(name) && !SHEET_COLUMNS.contains(name) && !isScorerColumn(name)) {
                problems.add("unknown column '" + name + "': a labels file has " + String.join(", ", KEY_COLUMNS)
                        + ", the sheet's " + String.join(", ", List.of(LabelSheet.REPEAT, LabelSheet.DATASET,
                                LabelSheet.INPUT, LabelSheet.OUTPUT, LabelSheet.REFERENCE))
                        + " and <scorer>.score, <scorer>.verdict, <scorer>.reason");
            }
        }
        String verdictText = text(fields, LabelSheet.HUMAN_VERDICT);
        String scoreText = text(fields, LabelSheet.HUMAN_SCORE);
        Boolean verdict = verdict(fields.get(LabelSheet.HUMAN_VERDICT), verdictText, problems);
        Double score = score(fields.get(LabelSheet.HUMAN_SCORE), scoreText, problems);
        if (verdictText.isEmpty() && scoreText.isEmpty()) {
            return null;
        }
        if (verdict != null && score != null && verdict != (score >= PASS_SCORE)) {
            // which one would count depends on who asks: the agreement takes the verdict, a manual case the score
            problems.add("human_verdict " + verdictText + " contradicts human_score " + scoreText + ": a pass is a "
                    + "score of " + PASS_SCORE + " or more, a fail less; give one, or both alike");
        }
        String eval = text(fields, LabelSheet.EVAL);
        if (eval.isEmpty()) {
            eval = defaultEval == null ? "" : defaultEval;
        }
        String caseId = text(fields, LabelSheet.CASE);
        if (caseId.isEmpty()) {
            caseId = text(fields, "case_id");
        }
        String model = text(fields, LabelSheet.MODEL);
        for (Map.Entry<String, String> required : Map.of(LabelSheet.EVAL, eval, LabelSheet.CASE, caseId,
                LabelSheet.MODEL, model).entrySet()) {
            if (required.getValue().isEmpty()) {
                problems.add("a label needs its " + required.getKey()
                        + (required.getKey().equals(LabelSheet.EVAL) ? " (in a file declared in configuration)" : ""));
            }
        }
        String digest = text(fields, LabelSheet.OUTPUT_DIGEST).toLowerCase(Locale.ROOT);
        if (!digest.isEmpty() && !digest.matches("[0-9a-f]{64}")) {
            problems.add("bad output_digest '" + digest + "': expected the SHA-256 of the output, 64 hex digits");
        }
        if (digest.isEmpty() && fields.hasNonNull(LabelSheet.OUTPUT)) {
            digest = OutputDigest.of(LabelSheet.unprotected(fields.get(LabelSheet.OUTPUT).asText()));
        }
        if (!problems.isEmpty()) {
            return null;
        }
        return new HumanLabel(eval, caseId, model, digest.isEmpty() ? null : digest, verdict, score,
                text(fields, LabelSheet.HUMAN_NOTE), where);
    }

    /** Whether a column is one of the sheet's scorer columns: {@code <scorer>.score}, {@code .verdict}, {@code .reason}. */
    static boolean isScorerColumn(String name) {
        return name.endsWith(".score") || name.endsWith(".verdict") || name.endsWith(".reason");
    }

    private static String text(JsonNode fields, String name) {
        JsonNode value = fields.get(name);
        return value == null || value.isNull() ? "" : LabelSheet.unprotected(value.asText()).strip();
    }

    private static Boolean verdict(JsonNode node, String text, List<String> problems) {
        if (node != null && node.isBoolean()) {
            return node.booleanValue();
        }
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "" -> null;
            case "pass", "passed", "true" -> Boolean.TRUE;
            case "fail", "failed", "false" -> Boolean.FALSE;
            default -> {
                problems.add("bad human_verdict '" + text + "': expected pass or fail");
                yield null;
            }
        };
    }

    private static Double score(JsonNode node, String text, List<String> problems) {
        if (text.isEmpty()) {
            return null;
        }
        double value;
        try {
            value = node != null && node.isNumber() ? node.doubleValue() : Double.parseDouble(text);
        }
        catch (NumberFormatException e) {
            problems.add("bad human_score '" + text + "': expected a number from 0 to 1");
            return null;
        }
        if (!(value >= 0 && value <= 1)) {
            problems.add("human_score " + text + " is out of range: expected a number from 0 to 1");
            return null;
        }
        return value;
    }
}
