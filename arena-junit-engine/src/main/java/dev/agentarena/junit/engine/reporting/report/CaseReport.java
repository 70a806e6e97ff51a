package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.reporting.baseline.BaselineEntry;
import dev.agentarena.junit.engine.results.OutputFiles;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.engine.results.SinkText;

/**
 * Writes {@code report.html}: one self-contained page (inline CSS and script, no network, opens from {@code file://})
 * with every case of every eval as a row and every model as a column, and, given a previous run, what changed per
 * case and model (see {@link Change}), with a word diff of the outputs ({@link WordDiff}).
 *
 * <p>The page is written from {@code results.jsonl} in one streaming pass: the engine holds one results line at a
 * time, never the run's cases (a comparison adds an index of about 50 bytes per result of each run, see
 * {@link RunIndex}). A run without a comparison gathers the same records while it writes its results
 * ({@link InRunReport}) and only assembles the page at its end; a run compared with a previous one (its
 * {@code arena.report.compare-to}, a baseline file) is still written here, from the file, at the end: a record's
 * change needs the aggregate of its case over the whole run (see {@link Change}), so nothing can be written before
 * the last result. {@code CompareRuns} and the shard merge write from files too. The results go into the page as compact JSON arrays in {@code <script type="application/json">}
 * chunks, made safe for the page as {@link EmbeddedJson} makes JSON safe (the records written straight as the page's
 * bytes by {@link DataBytes}); the page's script draws only the rows in view and shows
 * every text from the data with {@code textContent}. The page template, {@code report-template.html} beside this
 * class, documents the element ids and data attributes the page offers to browser tests.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CaseReport {

    /** The file's name in the output directory. */
    public static final String FILE_NAME = "report.html";

    /** The results file's name, in a run's output directory. */
    static final String RESULTS_FILE = "results.jsonl";

    /** How many results one data chunk of the page holds. */
    static final int CHUNK = 2000;

    /** How many case names a regression line names at most. */
    static final int NAMED_CASES = 10;

    /** How many characters of a name the console shows. */
    static final int NAME = 200;

    private static final String DATA_MARKER = "<!--ARENA:DATA-->";

    /** Where the template names the step limit's key, which a transcript says stopped a run. */
    private static final String STEP_LIMIT_KEY = "@ARENA:STEP_LIMIT_KEY@";

    private CaseReport() {
    }

    /**
     * The class of an eval, for the unique ids and rerun hints of its cases.
     *
     * @param className the eval class's name
     * @param datasetSegment whether its case ids have a {@code [dataset:...]} segment (it reads several datasets)
     */
    public record EvalClass(String className, boolean datasetSegment) {
    }

    /**
     * The cases of one model of one eval that regressed.
     *
     * @param eval the eval
     * @param model the model
     * @param cases how many cases regressed
     * @param names the first {@value #NAMED_CASES} of them
     */
    public record Regressions(String eval, String model, int cases, List<String> names) {

        /**
         * {@code 3 cases regressed on sim_large in support-triage: a, b, c}, each name on one safe line (see
         * {@link SinkText#name}): a case id is data.
         */
        public String line() {
            return cases + (cases == 1 ? " case" : " cases") + " regressed on " + SinkText.name(model, NAME) + " in "
                    + SinkText.name(eval, NAME) + ": " + String.join(", ", names.stream()
                            .map(name -> SinkText.name(name, NAME)).toList())
                    + (cases > names.size() ? " and " + (cases - names.size()) + " more" : "");
        }
    }

    /**
     * A comparison with a previous run.
     *
     * @param previous what the previous run is
     * @param cells how many case-and-model cells changed how (a cell takes the worst change of its scorers)
     * @param regressions the regressed cases, per eval and model
     * @param versionChanges the scorers whose versions differ between the runs, one line each
     */
    public record Comparison(String previous, Map<Change, Integer> cells, List<Regressions> regressions,
            List<String> versionChanges) {

        /** Whether any case regressed. */
        public boolean regressed() {
            return !regressions.isEmpty();
        }

        /** The console's lines: the counts, each model's regressions by name, the changed scorer versions. */
        public List<String> lines() {
            List<String> lines = new ArrayList<>();
            List<String> counts = new ArrayList<>();
            for (Change change : Change.values()) {
                counts.add(cells.getOrDefault(change, 0) + " " + change.word());
            }
            lines.add("compared with " + previous + " (cases by model): " + String.join(", ", counts));
            regressions.forEach(regression -> lines.add(regression.line()));
            versionChanges.forEach(change -> lines.add("scorer version changed since the previous run, so its "
                    + "scores may measure the scorer, not the model: " + SinkText.name(change, 3 * NAME)));
            return lines;
        }
    }

    /**
     * The previous run could not be read (it is not there, a line is not a result, it holds none): the message names
     * the file and the line. A run still writes its report, without the comparison.
     */
    public static final class UnreadablePreviousRun extends IOException {

        private static final long serialVersionUID = 1L;

        UnreadablePreviousRun(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * What was written.
     *
     * @param file the page, or empty when only compared
     * @param results how many results lines it holds
     * @param comparison the comparison, when there was a previous run
     */
    public record Outcome(Optional<Path> file, long results, Optional<Comparison> comparison) {
    }

    /**
     * Writes the report of a results file, compared with a previous run if given.
     *
     * @param results the run's {@code results.jsonl}
     * @param previous the previous run (see {@code arena.report.compare-to}), if any
     * @param evals the eval classes by eval name, for unique ids; may be empty
     * @param tolerance the largest fall of a case's mean score that is not a regression by itself
     * @param target where the page goes; empty to compare only
     * @throws IOException when a file cannot be read or written, naming it (and the line at fault)
     */
    public static Outcome write(Path results, Optional<Path> previous, Map<String, EvalClass> evals,
            double tolerance, Optional<Path> target) throws IOException {
        PreviousRun before = previous.isPresent() ? PreviousRun.at(previous.get()) : null;
        RunIndex beforeIndex = before == null ? null : before.index();
        boolean withDataset = before == null || !before.isBaseline();
        RunIndex afterIndex = null;
        if (before != null) {
            afterIndex = new RunIndex();
            try (ResultLines lines = new ResultLines(results)) {
                for (ResultLines.Line line = lines.next(); line != null; line = lines.next()) {
                    long key = key(line, withDataset);
                    afterIndex.add(key, line.offset(), line.number("score"), line.status());
                    afterIndex.version(line.text("eval"), line.text("scorer"), line.text("scorer_version"));
                    beforeIndex.markSeen(key);
                }
            }
        }
        Page page = new Page(before, beforeIndex, afterIndex, withDataset, tolerance);
        if (target.isEmpty()) {
            page.run(results, OutputStream.nullOutputStream(), Writer.nullWriter(), evals);
            return new Outcome(Optional.empty(), page.count, page.comparison());
        }
        Path file = writeAtomically(target.get(), (out, writer) -> page.run(results, out, writer, evals));
        return new Outcome(Optional.of(file), page.count, page.comparison());
    }

    /** Writes a page: to its bytes, or to its text (flushed to the bytes before they are written to again). */
    @FunctionalInterface
    interface PageWriter {
        void write(OutputStream out, Writer writer) throws IOException;
    }

    /**
     * Writes the page to a temporary file beside the target, then moves it over the target, so that a reader never
     * sees half a page; returns the target's absolute path.
     */
    static Path writeAtomically(Path target, PageWriter content) throws IOException {
        Path file = target.toAbsolutePath();
        Files.createDirectories(file.getParent());
        Path temporary = OutputFiles.temporaryBeside(file);
        try {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temporary), 1 << 16);
                    // an encoder that reports a malformed text, as Files.newBufferedWriter's does
                    Writer writer = new BufferedWriter(new OutputStreamWriter(out,
                            StandardCharsets.UTF_8.newEncoder()))) {
                content.write(out, writer);
                writer.flush();
            }
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        finally {
            Files.deleteIfExists(temporary);
        }
        return file;
    }

    /** The key of a line: eval, model, dataset (unless compared with a baseline, which has none), case, scorer. */
    static long key(ResultLines.Line line, boolean withDataset) {
        return RunIndex.key(line.text("eval"), line.text("model"), withDataset ? line.text("dataset") : null,
                line.text("case_id"), line.text("scorer"));
    }

    /** The page template, split where the data goes. */
    static String[] template() {
        try (InputStream in = CaseReport.class.getResourceAsStream("report-template.html")) {
            if (in == null) {
                throw new IllegalStateException("report-template.html is missing from the engine's jar");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace(STEP_LIMIT_KEY, Constants.AGENT_MAX_STEPS);
            int at = text.indexOf(DATA_MARKER);
            return new String[] {text.substring(0, at), text.substring(at + DATA_MARKER.length())};
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot read report-template.html", e);
        }
    }

    /** Status codes of the page's data. */
    static int statusCode(ResultStatus status) {
        if (status == null) {
            return 2;
        }
        return switch (status) {
            case PASSED -> 0;
            case FAILED -> 1;
            case ERROR -> 2;
            case NOT_APPLICABLE -> 3;
            case NOT_RUN -> 4;
        };
    }

    /**
     * The page's data, written record by record: in one pass over the results, counting the changes, or as the run
     * reports its results ({@link InRunReport}, without a comparison), the chunks then going to a spill file that the
     * end of the run copies into the page.
     */
    static final class Page {
        private final PreviousRun before;
        private final RunIndex beforeIndex;
        private final RunIndex afterIndex;
        private final boolean withDataset;
        private final double tolerance;
        private final Map<String, Integer> strings = new LinkedHashMap<>();
        private final Map<Change, Integer> cells = new EnumMap<>(Change.class);
        private final Map<String, Named> regressed = new LinkedHashMap<>();
        long count;
        private int inChunk;
        private Writer raw;
        private DataBytes json;
        // the last text of each name of a record (eval, model, dataset, scorer, scorer version) and its index in the
        // string table: the same instance comes back for every result gathered during a run
        private final String[] lastName = new String[5];
        private final int[] lastIndex = {-1, -1, -1, -1, -1};
        // and whether it holds U+0000, which keys of names joined alike could hide (see sameCell)
        private final boolean[] lastSeparator = new boolean[5];

        // the previous record, for "same as before" (1) in place of a repeated text: its values, whether it has a
        // cell and case (a removed result has neither) and its repeat
        private Shown last;
        private boolean lastKeyed;
        private int lastRepeat;
        private boolean previousSeparator;
        private String lastDiffOutput;
        private String lastBeforeOutput;
        // each cell's worst change so far, wherever its lines are
        private final CellChanges cellChanges = new CellChanges();
        // the previous run's line of the current key, read once per key
        private long beforeOffset = -2;
        private JsonNode beforeLine;

        Page(PreviousRun before, RunIndex beforeIndex, RunIndex afterIndex, boolean withDataset, double tolerance) {
            this.before = before;
            this.beforeIndex = beforeIndex;
            this.afterIndex = afterIndex;
            this.withDataset = withDataset;
            this.tolerance = tolerance;
        }

        /** A model's regressed cases: how many, and the first names. */
        private static final class Named {
            int count;
            final List<String> names = new ArrayList<>();
        }

        /** A page without a comparison, whose records are added one by one ({@link #add}). */
        Page() {
            this(null, null, null, true, 0);
        }

        /** Writes the page: its text to the writer, its data chunks to the writer's bytes, flushing it first. */
        void run(Path results, OutputStream out, Writer writer, Map<String, EvalClass> evals) throws IOException {
            String[] template = template();
            raw = writer;
            raw.write(template[0]);
            raw.flush();
            json = new DataBytes(out);
            openChunk();
            try (ResultLines lines = new ResultLines(results);
                    ResultLines.Reader beforeLines = before == null || before.isBaseline() ? null
                            : new ResultLines.Reader(before.file())) {
                for (ResultLines.Line line = lines.next(); line != null; line = lines.next()) {
                    current(line, beforeLines);
                }
                cellChanges.counts().forEach((change, n) -> cells.merge(change, n, Integer::sum));
                if (before != null) {
                    removed(beforeLines);
                }
            }
            closeChunk();
            json.drain();
            end(writer, template, evals, results);
        }

        /** Starts the data chunks, written to the stream as records are added. */
        void begin(OutputStream chunks) throws IOException {
            json = new DataBytes(chunks);
            openChunk();
        }

        /** Adds a result of a page without a comparison, as a pass over the results would. */
        void add(Shown result) throws IOException {
            record(result, true, result.repeat(), null, null, null, false, false);
        }

        /** Ends the data chunks, written to the stream (not flushed). */
        void endChunks() throws IOException {
            closeChunk();
            json.drain();
        }

        /** Writes what follows the chunks: the string table, the meta and the end of the template. */
        void end(Writer writer, String[] template, Map<String, EvalClass> evals, Path results) throws IOException {
            raw = writer;
            writeBlock("arena-strings", stringTable());
            writeBlock("arena-meta", meta(evals, results));
            raw.write(template[1]);
            raw.flush();
        }

        private void current(ResultLines.Line line, ResultLines.Reader beforeLines) throws IOException {
            Shown shown = Shown.of(line);
            String eval = shown.eval();
            String model = shown.model();
            String dataset = shown.dataset();
            String caseId = shown.caseId();
            int repeat = shown.repeat();
            Change change = null;
            Change.Aggregate was = null;
            JsonNode beforeNode = null;
            if (before != null) {
                long key = key(line, withDataset);
                was = beforeIndex.get(key);
                change = Change.classify(was, afterIndex.get(key), tolerance);
                Change worst = cellChanges.merge(RunIndex.key(eval, model, dataset, caseId, null), change);
                if (change == Change.REGRESSED && worst != Change.REGRESSED) {
                    // the cell's first regressed result, wherever its other lines are
                    Named named = regressed.computeIfAbsent(eval + '\u0000' + model, k -> new Named());
                    named.count++;
                    if (named.names.size() < NAMED_CASES) {
                        named.names.add(withDataset && dataset != null && !dataset.isEmpty()
                                && !"default".equals(dataset) ? dataset + "/" + caseId : caseId);
                    }
                }
                if (beforeLines != null) {
                    long offset = beforeIndex.offset(key);
                    if (offset != beforeOffset) {
                        beforeOffset = offset;
                        beforeLine = offset < 0 ? null : beforeLines.lineAt(offset);
                    }
                    beforeNode = beforeLine;
                }
            }
            record(shown, true, repeat, change, was, beforeNode == null ? null : text(beforeNode, "output"),
                    beforeNode != null, beforeLines != null);
        }

        /**
         * The results only the previous run has, after the current ones, each marked removed; of the evals this run
         * has (a run of one eval class is not compared with the others of a baseline).
         */
        private void removed(ResultLines.Reader beforeLines) throws IOException {
            Set<String> removedCells = new HashSet<>();
            last = null;
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
                        record(Shown.of(ResultLines.Fields.of(Json.MAPPER.valueToTree(node))), false, 0,
                                Change.REMOVED, beforeIndex.get(key), null, false, false);
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
                    record(Shown.of(ResultLines.Fields.of(node)), false, 0, Change.REMOVED, beforeIndex.get(key), null,
                            false, false);
                }
            }
            if (!removedCells.isEmpty()) {
                cells.merge(Change.REMOVED, removedCells.size(), Integer::sum);
            }
        }

        private static String text(JsonNode node, String field) {
            JsonNode value = node.get(field);
            return value == null || value.isNull() ? null : value.asText();
        }

        /**
         * One result as an array: eval, model, dataset, case id, scorer, scorer version, repeat, score, status,
         * reason, metrics, latency, cost, tokens in, tokens out, cached, error, output, tags, input, reference,
         * trajectory, comparison, then, only when needed, cached tokens and queue time. Names are indexes into the string table; a text equal to the previous record's of
         * the same cell (output, trajectory) or case (input, reference) is {@code 1}; an output that the record's own diff
         * spells out (its unchanged and added words) is {@code 2}. The comparison is {@code null},
         * or {@code [change, previous mean score, previous rank, diff]}, the diff {@code null} when the outputs
         * are equal or unknown, else {@code [op, text, op, text, ...]} (0 same, -1 removed, 1 added), or {@code 1}.
         */
        private void record(Shown node, boolean keyed, int repeat, Change change, Change.Aggregate was,
                String beforeOutput, boolean hasBefore, boolean outputsKnown) throws IOException {
            if (inChunk == CHUNK) {
                closeChunk();
                openChunk();
            }
            inChunk++;
            count++;
            int eval = name(0, node.eval());
            int model = name(1, node.model());
            int dataset = name(2, node.dataset());
            int scorer = name(3, node.scorer());
            int scorerVersion = name(4, node.scorerVersion());
            Shown previous = last;
            boolean separator = lastSeparator[0] || lastSeparator[1] || lastSeparator[2]
                    || separator(node.caseId());
            boolean bothKeyed = keyed && lastKeyed && previous != null;
            boolean either = separator || previousSeparator;
            boolean sameCell = bothKeyed && sameCell(node, repeat, previous, lastRepeat, either);
            boolean sameCase = bothKeyed && sameCase(node, previous, either);
            int plain = node.plain();
            json.startArray();
            json.number(eval);
            json.number(model);
            json.number(dataset);
            text(node.caseId(), plain, Shown.CASE_ID);
            json.number(scorer);
            json.number(scorerVersion);
            json.number(repeat);
            if (node.score() != null) {
                json.number(node.score().doubleValue());
            }
            else {
                json.nullValue();
            }
            json.number(statusCode(node.status()));
            text(node.reason(), plain, Shown.REASON);
            if (node.metrics() != null) {
                json.tree(node.metrics());
            }
            else {
                json.number(0);
            }
            if (node.latencyMs() != null) {
                json.number(node.latencyMs().longValue());
            }
            else {
                json.nullValue();
            }
            json.number(node.costUsd());
            json.number(node.tokensIn());
            json.number(node.tokensOut());
            json.number(node.cached() ? 1 : 0);
            text(node.error(), plain, Shown.ERROR);
            String output = node.output();
            // 0 no diff, 1 the previous record's, 2 a diff of its own
            int diff = change == null ? 0 : diff(sameCell, output, beforeOutput, hasBefore, outputsKnown);
            if (sameCell && Objects.equals(output, previous.output())) {
                json.number(1);
            }
            else if (diff == 2 && output != null) {
                // the diff's added and unchanged words are the output
                json.number(2);
            }
            else {
                text(output, plain, Shown.OUTPUT);
            }
            json.startArray();
            for (String tag : node.tags()) {
                json.number(string(tag));
            }
            json.endArray();
            String input = node.input();
            String reference = node.reference();
            sameOr(sameCase && Objects.equals(input, previous.input()), input, plain, Shown.INPUT);
            sameOr(sameCase && Objects.equals(reference, previous.reference()), reference, plain, Shown.REFERENCE);
            JsonNode trajectory = node.trajectory();
            if (trajectory == null) {
                json.nullValue();
            }
            else {
                trajectory(trajectory, sameCell ? previous.trajectory() : null);
            }
            if (change == null) {
                json.nullValue();
            }
            else {
                comparison(change, was, diff, beforeOutput, output);
            }
            long cachedTokens = node.tokensCached();
            Long queue = node.queueMs();
            if (cachedTokens > 0 || queue != null) {
                // only where the provider served some, or the calls waited: the page reads a missing one as none
                json.number(cachedTokens);
            }
            if (queue != null) {
                json.number(queue.longValue());
            }
            json.endArray();
            last = node;
            lastKeyed = keyed;
            lastRepeat = repeat;
            previousSeparator = separator;
        }

        /**
         * A text of a record: copied when its result says it is {@linkplain DataBytes#plain plain} ({@code bit} set in
         * {@code plain}), else written character by character.
         */
        private void text(String text, int plain, int bit) throws IOException {
            if ((plain & bit) != 0) {
                json.plainString(text);
            }
            else {
                json.string(text);
            }
        }

        /**
         * What a compared record's output is beside the previous run's: 0 no diff (equal, or one of them unknown), 1
         * the previous record's diff (same cell, same outputs), 2 a diff of its own.
         */
        private int diff(boolean sameCell, String output, String beforeOutput, boolean hasBefore,
                boolean outputsKnown) {
            if (!outputsKnown || !hasBefore || Objects.equals(beforeOutput, output)) {
                return 0;
            }
            return sameCell && Objects.equals(output, lastDiffOutput) && Objects.equals(beforeOutput, lastBeforeOutput)
                    ? 1 : 2;
        }

        /**
         * A trajectory, or {@code 1} when it equals {@code previousOfCell}: the previous record's when that record is
         * of the same cell, else {@code null}.
         */
        private void trajectory(JsonNode trajectory, JsonNode previousOfCell) throws IOException {
            if (trajectory.equals(previousOfCell)) {
                json.number(1);
            }
            else {
                json.tree(trajectory);
            }
        }

        /** A compared record's comparison: {@code [change, previous mean score, previous rank, diff]}. */
        private void comparison(Change change, Change.Aggregate was, int diff, String beforeOutput, String output)
                throws IOException {
            json.startArray();
            json.number(change.ordinal());
            double mean = was == null ? Double.NaN : was.mean();
            if (Double.isFinite(mean)) {
                json.number(mean);
            }
            else {
                json.nullValue();
            }
            json.number(was == null ? -2 : was.rank());
            if (diff == 0) {
                json.nullValue();
            }
            else if (diff == 1) {
                json.number(1);
            }
            else {
                diff(beforeOutput, output);
            }
            lastDiffOutput = output;
            lastBeforeOutput = beforeOutput;
            json.endArray();
        }

        /**
         * Whether two records are of one cell and repeat: whether {@code eval, model, dataset, case id, repeat}
         * joined with U+0000 make one text (a missing one as {@code null}), the key the page always compared, without
         * building it for every record.
         */
        static boolean sameCell(Shown node, int repeat, Shown other, int otherRepeat, boolean separator) {
            if (repeat == otherRepeat && same(node.eval(), other.eval()) && same(node.model(), other.model())
                    && same(node.dataset(), other.dataset()) && same(node.caseId(), other.caseId())) {
                return true;
            }
            // names that differ can only join alike when one holds the separator
            return separator && (String.join("\u0000", String.valueOf(node.eval()), String.valueOf(node.model()),
                            String.valueOf(node.dataset()), String.valueOf(node.caseId()), String.valueOf(repeat))
                            .equals(String.join("\u0000", String.valueOf(other.eval()),
                                    String.valueOf(other.model()), String.valueOf(other.dataset()),
                                    String.valueOf(other.caseId()), String.valueOf(otherRepeat))));
        }

        /** Whether two records are of one case: {@code eval, dataset, case id} as {@link #sameCell} joins them. */
        static boolean sameCase(Shown node, Shown other, boolean separator) {
            if (same(node.eval(), other.eval()) && same(node.dataset(), other.dataset())
                    && same(node.caseId(), other.caseId())) {
                return true;
            }
            return separator && String.join("\u0000", String.valueOf(node.eval()), String.valueOf(node.dataset()),
                            String.valueOf(node.caseId())).equals(String.join("\u0000",
                                    String.valueOf(other.eval()), String.valueOf(other.dataset()),
                                    String.valueOf(other.caseId())));
        }

        /** Equal as texts joined into a key, where a missing one is written {@code null}. */
        private static boolean same(String a, String b) {
            if (a == b) {
                return true;
            }
            if (a == null) {
                return "null".equals(b);
            }
            return a.equals(b == null ? "null" : b);
        }

        /**
         * Whether a record's eval, model, dataset or case id holds the separator of the keys {@link #sameCell} joins.
         */
        static boolean separator(Shown node) {
            return separator(node.eval()) || separator(node.model()) || separator(node.dataset())
                    || separator(node.caseId());
        }

        private static boolean separator(String text) {
            return text != null && text.indexOf('\u0000') >= 0;
        }

        private void diff(String beforeOutput, String output) throws IOException {
            json.startArray();
            String was = beforeOutput == null ? "" : beforeOutput;
            String now = output == null ? "" : output;
            for (WordDiff.Segment segment : WordDiff.diff(was, now)) {
                if (segment.text().isEmpty()) {
                    continue;
                }
                json.number(switch (segment.op()) {
                    case SAME -> 0;
                    case REMOVED -> -1;
                    case ADDED -> 1;
                });
                json.string(segment.text());
            }
            json.endArray();
        }

        private void sameOr(boolean same, String text, int plain, int bit) throws IOException {
            if (same) {
                json.number(1);
            }
            else {
                text(text, plain, bit);
            }
        }

        static ResultStatus statusOf(ResultLines.Fields node) {
            try {
                JsonNode status = node.get("status");
                return status == null || status.isNull() ? null : ResultStatus.fromJsonName(status.asText());
            }
            catch (IllegalArgumentException e) {
                return null;
            }
        }

        /** The index of one of a record's names ({@code slot}: eval, model, dataset, scorer, scorer version). */
        private int name(int slot, String text) {
            if (text != lastName[slot] || lastIndex[slot] < 0) {
                lastName[slot] = text;
                lastIndex[slot] = string(text);
                lastSeparator[slot] = separator(text);
            }
            return lastIndex[slot];
        }

        private int string(String text) {
            String key = text == null ? "" : text;
            // not computeIfAbsent: its lambda, capturing the page, was an allocation per name of every record
            Integer index = strings.get(key);
            if (index == null) {
                index = strings.size();
                strings.put(key, index);
            }
            return index;
        }

        private void openChunk() throws IOException {
            json.markup("<script type=\"application/json\" class=\"arena-chunk\">");
            json.startRoot();
            inChunk = 0;
        }

        private void closeChunk() throws IOException {
            json.endArray();
            json.markup("</script>\n");
        }

        private void writeBlock(String id, Object value) throws IOException {
            raw.write("<script type=\"application/json\" id=\"" + id + "\">");
            EmbeddedJson safe = new EmbeddedJson(raw);
            safe.write(Json.MAPPER.writeValueAsString(value));
            safe.flush();
            raw.write("</script>\n");
        }

        private List<String> stringTable() {
            return new ArrayList<>(strings.keySet());
        }

        private Map<String, Object> meta(Map<String, EvalClass> evals, Path results) {
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("generated", Instant.now().toString());
            meta.put("results", results.toAbsolutePath().normalize().toString());
            meta.put("count", count);
            Map<String, Object> classes = new LinkedHashMap<>();
            evals.forEach((eval, type) -> classes.put(eval, Map.of("class", type.className(), "datasets",
                    type.datasetSegment())));
            meta.put("evals", classes);
            Optional<Comparison> comparison = comparison();
            if (comparison.isPresent()) {
                Map<String, Object> compare = new LinkedHashMap<>();
                compare.put("previous", comparison.get().previous());
                compare.put("baseline", before.isBaseline());
                compare.put("tolerance", tolerance);
                Map<String, Integer> counts = new LinkedHashMap<>();
                comparison.get().cells().forEach((change, n) -> counts.put(change.word(), n));
                compare.put("cells", counts);
                compare.put("lines", comparison.get().lines());
                compare.put("versionChanges", versionChanges());
                meta.put("compare", compare);
            }
            return meta;
        }

        /** Each scorer whose versions differ between the runs, as {@code eval / scorer}: its versions before and now. */
        private Map<String, String> versionChanges() {
            Map<String, String> changes = new LinkedHashMap<>();
            if (before == null) {
                return changes;
            }
            beforeIndex.versions().forEach((scorer, was) -> {
                Set<String> now = afterIndex.versions().get(scorer);
                if (now != null && !now.equals(was)) {
                    changes.put(scorer, String.join(", ", was) + " → " + String.join(", ", now));
                }
            });
            return changes;
        }

        Optional<Comparison> comparison() {
            if (before == null) {
                return Optional.empty();
            }
            List<Regressions> regressions = new ArrayList<>();
            regressed.forEach((key, named) -> {
                int at = key.indexOf('\u0000');
                regressions.add(new Regressions(key.substring(0, at), key.substring(at + 1), named.count,
                        List.copyOf(named.names)));
            });
            Map<Change, Integer> counts = new EnumMap<>(Change.class);
            for (Change change : Change.values()) {
                counts.put(change, cells.getOrDefault(change, 0));
            }
            List<String> versions = new ArrayList<>();
            versionChanges().forEach((scorer, change) -> versions.add(scorer + ": " + change));
            return Optional.of(new Comparison(before.describe(), counts, regressions, versions));
        }
    }
}
