package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.reporting.baseline.BaselineEntry;

/**
 * A run compared with a previous one as its page is written: each result's change ({@link Change}, from both runs'
 * aggregate per key, indexed before the first record), the worst change of each case-and-model cell, the regressed
 * cases by name, and the results only the previous run has, written after the run's own.
 */
final class RunComparison {

    private final PreviousRun before;
    private final RunIndex beforeIndex;
    private final RunIndex afterIndex;
    private final boolean withDataset;
    private final double tolerance;
    private final Map<Change, Integer> cells = new EnumMap<>(Change.class);
    private final Map<String, Named> regressed = new LinkedHashMap<>();
    // each cell's worst change so far, wherever its lines are
    private final CellChanges cellChanges = new CellChanges();
    // the previous run's line of the current key, read once per key
    private long beforeOffset = -2;
    private JsonNode beforeLine;

    /** A model's regressed cases: how many, and the first names. */
    private static final class Named {
        int count;
        final List<String> names = new ArrayList<>();
    }

    private RunComparison(PreviousRun before, RunIndex beforeIndex, RunIndex afterIndex, double tolerance) {
        this.before = before;
        this.beforeIndex = beforeIndex;
        this.afterIndex = afterIndex;
        this.withDataset = !before.isBaseline();
        this.tolerance = tolerance;
    }

    /**
     * The comparison of a results file with a previous run, both indexed.
     *
     * @throws CaseReport.UnreadablePreviousRun when the previous run cannot be read
     * @throws IOException when the results cannot be read, naming the file and line
     */
    static RunComparison of(Path results, Path previous, double tolerance) throws IOException {
        PreviousRun before = PreviousRun.at(previous);
        RunIndex beforeIndex = before.index();
        boolean withDataset = !before.isBaseline();
        RunIndex afterIndex = new RunIndex();
        try (ResultLines lines = new ResultLines(results)) {
            for (ResultLines.Line line = lines.next(); line != null; line = lines.next()) {
                long key = CaseReport.key(line, withDataset);
                afterIndex.add(key, line.offset(), line.number("score"), line.status());
                afterIndex.version(line.text("eval"), line.text("scorer"), line.text("scorer_version"));
                beforeIndex.markSeen(key);
            }
        }
        return new RunComparison(before, beforeIndex, afterIndex, tolerance);
    }

    /** The previous run's lines, to read by offset; {@code null} for a baseline, which has no outputs. */
    ResultLines.Reader beforeLines() throws IOException {
        return before.isBaseline() ? null : new ResultLines.Reader(before.file());
    }

    /** A result of the run: its change, counted in its cell and, when it regressed, by name. */
    PageData.Versus versus(ResultLines.Line line, Shown shown, ResultLines.Reader beforeLines) throws IOException {
        long key = CaseReport.key(line, withDataset);
        Change.Aggregate was = beforeIndex.get(key);
        Change change = Change.classify(was, afterIndex.get(key), tolerance);
        Change worst = cellChanges.merge(RunIndex.key(shown.eval(), shown.model(), shown.dataset(), shown.caseId(),
                null), change);
        if (change == Change.REGRESSED && worst != Change.REGRESSED) {
            // the cell's first regressed result, wherever its other lines are
            Named named = regressed.computeIfAbsent(shown.eval() + '\u0000' + shown.model(), k -> new Named());
            named.count++;
            if (named.names.size() < CaseReport.NAMED_CASES) {
                String dataset = shown.dataset();
                named.names.add(withDataset && dataset != null && !dataset.isEmpty() && !"default".equals(dataset)
                        ? dataset + "/" + shown.caseId() : shown.caseId());
            }
        }
        JsonNode beforeNode = null;
        if (beforeLines != null) {
            long offset = beforeIndex.offset(key);
            if (offset != beforeOffset) {
                beforeOffset = offset;
                beforeLine = offset < 0 ? null : beforeLines.lineAt(offset);
            }
            beforeNode = beforeLine;
        }
        return new PageData.Versus(change, was, beforeNode == null ? null : text(beforeNode, "output"),
                beforeNode != null, beforeLines != null);
    }

    /**
     * After the run's own results: the cells counted, then the results only the previous run has, each marked removed,
     * of the evals this run has (a run of one eval class is not compared with the others of a baseline).
     */
    void removed(PageData data, ResultLines.Reader beforeLines) throws IOException {
        cellChanges.counts().forEach((change, n) -> cells.merge(change, n, Integer::sum));
        Set<String> removedCells = new HashSet<>();
        if (before.isBaseline()) {
            for (BaselineEntry entry : before.baseline().entries()) {
                if (!afterIndex.hasEval(entry.eval())) {
                    continue;
                }
                for (Map.Entry<String, Double> score : entry.scores().entrySet()) {
                    long key = RunIndex.key(entry.eval(), entry.model(), null, score.getKey(), entry.scorer());
                    if (afterIndex.get(key) != null) {
                        continue;
                    }
                    removedCells.add(entry.eval() + '\u0000' + entry.model() + '\u0000' + score.getKey());
                    Boolean passed = entry.passed().get(score.getKey());
                    boolean pass = passed == null ? score.getValue() >= 1.0 : passed;
                    Map<String, Object> node = new LinkedHashMap<>();
                    node.put("eval", entry.eval());
                    node.put("model", entry.model());
                    node.put("dataset", "");
                    node.put("case_id", score.getKey());
                    node.put("scorer", entry.scorer());
                    node.put("scorer_version", entry.scorerVersion());
                    node.put("score", score.getValue());
                    node.put("status", pass ? "passed" : "failed");
                    data.record(Shown.of(ResultLines.Fields.of(Json.MAPPER.valueToTree(node))), false, 0,
                            removed(beforeIndex.get(key)));
                }
            }
        }
        else {
            for (long offset : beforeIndex.unseenOffsets()) {
                JsonNode node = beforeLines.lineAt(offset);
                if (!afterIndex.hasEval(text(node, "eval"))) {
                    continue;
                }
                removedCells.add(node.path("eval").asText() + '\u0000' + node.path("model").asText() + '\u0000'
                        + node.path("dataset").asText() + '\u0000' + node.path("case_id").asText());
                long key = RunIndex.key(text(node, "eval"), text(node, "model"), text(node, "dataset"),
                        text(node, "case_id"), text(node, "scorer"));
                data.record(Shown.of(ResultLines.Fields.of(node)), false, 0, removed(beforeIndex.get(key)));
            }
        }
        if (!removedCells.isEmpty()) {
            cells.merge(Change.REMOVED, removedCells.size(), Integer::sum);
        }
    }

    private static PageData.Versus removed(Change.Aggregate was) {
        return new PageData.Versus(Change.REMOVED, was, null, false, false);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    /** The comparison as the console and the meta show it. */
    CaseReport.Comparison comparison() {
        List<CaseReport.Regressions> regressions = new ArrayList<>();
        regressed.forEach((key, named) -> {
            int at = key.indexOf('\u0000');
            regressions.add(new CaseReport.Regressions(key.substring(0, at), key.substring(at + 1), named.count,
                    List.copyOf(named.names)));
        });
        Map<Change, Integer> counts = new EnumMap<>(Change.class);
        for (Change change : Change.values()) {
            counts.put(change, cells.getOrDefault(change, 0));
        }
        List<String> versions = new ArrayList<>();
        versionChanges().forEach((scorer, change) -> versions.add(scorer + ": " + change));
        return new CaseReport.Comparison(before.describe(), counts, regressions, versions);
    }

    /** The page's meta of the comparison. */
    Map<String, Object> meta() {
        CaseReport.Comparison comparison = comparison();
        Map<String, Object> compare = new LinkedHashMap<>();
        compare.put("previous", comparison.previous());
        compare.put("baseline", before.isBaseline());
        compare.put("tolerance", tolerance);
        Map<String, Integer> counts = new LinkedHashMap<>();
        comparison.cells().forEach((change, n) -> counts.put(change.word(), n));
        compare.put("cells", counts);
        compare.put("lines", comparison.lines());
        compare.put("versionChanges", versionChanges());
        return compare;
    }

    /** Each scorer whose versions differ between the runs, as {@code eval / scorer}: its versions before and now. */
    private Map<String, String> versionChanges() {
        Map<String, String> changes = new LinkedHashMap<>();
        beforeIndex.versions().forEach((scorer, was) -> {
            Set<String> now = afterIndex.versions().get(scorer);
            if (now != null && !now.equals(was)) {
                changes.put(scorer, String.join(", ", was) + " → " + String.join(", ", now));
            }
        });
        return changes;
    }
}
