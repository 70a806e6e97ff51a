package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.results.Decimals;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.engine.results.SpanTable;

/**
 * The page's data, as its script reads it: each result one array ({@link #record}) in chunks of {@value #CHUNK}
 * per script block, in the order the results come, its names as indexes into a string table written after the last
 * chunk. A text equal to the previous record's of the same cell or case is written as {@code 1}, so the page holds a
 * case's input, a cell's output, trajectory and retrieved passages once for all its scorers and repeats.
 */
final class PageData {

    /** How many results one data chunk of the page holds. */
    static final int CHUNK = 2000;

    /**
     * A record's comparison with the previous run.
     *
     * @param change how its key changed
     * @param was the key's results in the previous run, or {@code null}
     * @param beforeOutput the previous run's output of the key, when {@code hasBefore}
     * @param hasBefore whether the previous run has a line of the key to read its output from
     * @param outputsKnown whether the previous run's outputs are known at all (a results file, not a baseline)
     */
    record Versus(Change change, Change.Aggregate was, String beforeOutput, boolean hasBefore, boolean outputsKnown) {
    }

    private final JsonGenerator json;
    private final Map<String, Integer> strings = new LinkedHashMap<>();
    private long count;
    private int inChunk;
    // the last text of each name of a record (eval, model, dataset, scorer, scorer version), its index in the string
    // table and whether it holds U+0000 (see sameCell): a run's results bring the same instances again and again
    private final String[] lastName = new String[5];
    private final int[] lastIndex = {-1, -1, -1, -1, -1};
    private final boolean[] lastSeparator = new boolean[5];
    // the previous record, for "as before": its values, whether it has a cell and case (a removed result has
    // neither), its repeat, whether its names hold the separator, and its diff's outputs
    private Shown last;
    private boolean lastKeyed;
    private int lastRepeat;
    private boolean previousSeparator;
    private String lastDiffOutput;
    private String lastBeforeOutput;

    /** The data written by the page's generator, its first chunk opened. */
    PageData(JsonGenerator json) throws IOException {
        this.json = json;
        openChunk();
    }

    /** How many records it holds. */
    long count() {
        return count;
    }

    /** A result of a run that is compared with nothing. */
    void add(Shown result) throws IOException {
        record(result, true, result.repeat(), null);
    }

    /** Closes the last chunk and writes the string table. */
    void end(PageFile page) throws IOException {
        closeChunk();
        page.block("arena-strings", new ArrayList<>(strings.keySet()));
    }

    /**
     * One result as an array: eval, model, dataset, case id, scorer, scorer version, repeat, score, status, reason,
     * metrics (0 for none), latency, cost, tokens in, tokens out, cached, error, output, tags, input, reference,
     * trajectory, comparison, then, only when needed, cached tokens, queue time, retrieved passages, the scorer's
     * verdicts on passages ({@link Shown#verdicts}) and the case's spans as rows ({@link SpanTable}). Names and tags
     * are indexes into the string table. An output, trajectory or retrieved passages equal to the previous record's of
     * the same cell and repeat, an input or reference equal to the previous record's of the same case, is {@code 1};
     * an output that the record's own diff spells out is {@code 2}. The comparison is {@code null} or {@code [change,
     * previous mean score, previous rank, diff]}, the diff {@code null} when the outputs are equal or unknown,
     * {@code 1} when the previous record's, else {@code [op, text, ...]} (0 same, -1 removed, 1 added).
     *
     * @param keyed whether it has a cell and a case (a removed result has neither)
     * @param repeat its repeat as written
     * @param versus its comparison, or {@code null}
     */
    void record(Shown node, boolean keyed, int repeat, Versus versus) throws IOException {
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
        boolean separator = lastSeparator[0] || lastSeparator[1] || lastSeparator[2] || separator(node.caseId());
        boolean bothKeyed = keyed && lastKeyed && previous != null;
        boolean either = separator || previousSeparator;
        boolean sameCell = bothKeyed && sameCell(node, repeat, previous, lastRepeat, either);
        boolean sameCase = bothKeyed && sameCase(node, previous, either);
        json.writeStartArray();
        json.writeNumber(eval);
        json.writeNumber(model);
        json.writeNumber(dataset);
        json.writeString(node.caseId());
        json.writeNumber(scorer);
        json.writeNumber(scorerVersion);
        json.writeNumber(repeat);
        if (node.score() != null) {
            number(node.score());
        }
        else {
            json.writeNull();
        }
        json.writeNumber(statusCode(node.status()));
        json.writeString(node.reason());
        if (node.metrics() != null) {
            json.writeTree(node.metrics());
        }
        else {
            json.writeNumber(0);
        }
        if (node.latencyMs() != null) {
            json.writeNumber(node.latencyMs().longValue());
        }
        else {
            json.writeNull();
        }
        number(node.costUsd());
        json.writeNumber(node.tokensIn());
        json.writeNumber(node.tokensOut());
        json.writeNumber(node.cached() ? 1 : 0);
        json.writeString(node.error());
        String output = node.output();
        // 0 no diff, 1 the previous record's, 2 a diff of its own
        int diff = versus == null ? 0 : diff(sameCell, output, versus);
        if (sameCell && Objects.equals(output, previous.output())) {
            json.writeNumber(1);
        }
        else if (diff == 2 && output != null) {
            // the diff's added and unchanged words are the output
            json.writeNumber(2);
        }
        else {
            json.writeString(output);
        }
        json.writeStartArray();
        for (String tag : node.tags()) {
            json.writeNumber(string(tag));
        }
        json.writeEndArray();
        sameOr(sameCase && Objects.equals(node.input(), previous.input()), node.input());
        sameOr(sameCase && Objects.equals(node.reference(), previous.reference()), node.reference());
        JsonNode trajectory = node.trajectory();
        if (trajectory == null) {
            json.writeNull();
        }
        else if (sameCell && trajectory.equals(previous.trajectory())) {
            json.writeNumber(1);
        }
        else {
            json.writeTree(trajectory);
        }
        if (versus == null) {
            json.writeNull();
        }
        else {
            comparison(versus, diff, output);
        }
        long cachedTokens = node.tokensCached();
        Long queue = node.queueMs();
        JsonNode retrieved = node.retrieved();
        JsonNode verdicts = node.verdicts();
        JsonNode spans = node.spans();
        if (cachedTokens > 0 || queue != null || retrieved != null || verdicts != null || spans != null) {
            // only where the provider served some, the calls waited, the task retrieved or the scorer judged
            // passages, or the case has spans: the page reads a missing one as none
            json.writeNumber(cachedTokens);
        }
        if (queue != null) {
            json.writeNumber(queue.longValue());
        }
        else if (retrieved != null || verdicts != null || spans != null) {
            json.writeNull();
        }
        if (retrieved != null) {
            if (sameCell && retrieved.equals(previous.retrieved())) {
                json.writeNumber(1);
            }
            else {
                json.writeTree(retrieved);
            }
        }
        else if (verdicts != null || spans != null) {
            json.writeNull();
        }
        if (verdicts != null) {
            json.writeTree(verdicts);
        }
        else if (spans != null) {
            json.writeNull();
        }
        if (spans != null) {
            if (sameCell && spans.equals(previous.spans())) {
                json.writeNumber(1);
            }
            else {
                spanRows(spans);
            }
        }
        json.writeEndArray();
        last = node;
        lastKeyed = keyed;
        lastRepeat = repeat;
        previousSeparator = separator;
    }

    /** The case's spans as the page's compact table: {@code [depth, name, duration, status, attributes]} each. */
    private void spanRows(JsonNode spans) throws IOException {
        json.writeStartArray();
        for (SpanTable.Row row : SpanTable.rowsOfJson(spans)) {
            json.writeStartArray();
            json.writeNumber(row.depth());
            json.writeString(row.name());
            json.writeString(row.duration());
            json.writeString(row.status());
            json.writeString(row.attributes());
            json.writeEndArray();
        }
        json.writeEndArray();
    }

    /**
     * A finite number as the generator writes it ({@link Double#toString}), from the texts the results file's writer
     * remembered: the run's costs and scores are few values, each already written into its results line.
     */
    private void number(double value) throws IOException {
        if (Double.isFinite(value)) {
            json.writeNumber(Decimals.shortest(value));
        }
        else {
            json.writeNumber(value);
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
     * What a compared record's output is beside the previous run's: 0 no diff (equal, or one of them unknown), 1 the
     * previous record's diff (same cell, same outputs), 2 a diff of its own.
     */
    private int diff(boolean sameCell, String output, Versus versus) {
        String beforeOutput = versus.beforeOutput();
        if (!versus.outputsKnown() || !versus.hasBefore() || Objects.equals(beforeOutput, output)) {
            return 0;
        }
        return sameCell && Objects.equals(output, lastDiffOutput) && Objects.equals(beforeOutput, lastBeforeOutput)
                ? 1 : 2;
    }

    /** A compared record's comparison: {@code [change, previous mean score, previous rank, diff]}. */
    private void comparison(Versus versus, int diff, String output) throws IOException {
        json.writeStartArray();
        json.writeNumber(versus.change().ordinal());
        double mean = versus.was() == null ? Double.NaN : versus.was().mean();
        if (Double.isFinite(mean)) {
            json.writeNumber(mean);
        }
        else {
            json.writeNull();
        }
        json.writeNumber(versus.was() == null ? -2 : versus.was().rank());
        if (diff == 0) {
            json.writeNull();
        }
        else if (diff == 1) {
            json.writeNumber(1);
        }
        else {
            wordDiff(versus.beforeOutput(), output);
        }
        lastDiffOutput = output;
        lastBeforeOutput = versus.beforeOutput();
        json.writeEndArray();
    }

    private void wordDiff(String beforeOutput, String output) throws IOException {
        json.writeStartArray();
        for (WordDiff.Segment segment : WordDiff.diff(beforeOutput == null ? "" : beforeOutput,
                output == null ? "" : output)) {
            if (segment.text().isEmpty()) {
                continue;
            }
            json.writeNumber(switch (segment.op()) {
                case SAME -> 0;
                case REMOVED -> -1;
                case ADDED -> 1;
            });
            json.writeString(segment.text());
        }
        json.writeEndArray();
    }

    private void sameOr(boolean same, String text) throws IOException {
        if (same) {
            json.writeNumber(1);
        }
        else {
            json.writeString(text);
        }
    }

    /**
     * Whether two records are of one cell and repeat: whether {@code eval, model, dataset, case id, repeat} joined
     * with U+0000 make one text (a missing one as {@code null}), the key the page always compared, without building
     * it for every record.
     */
    static boolean sameCell(Shown node, int repeat, Shown other, int otherRepeat, boolean separator) {
        if (repeat == otherRepeat && same(node.eval(), other.eval()) && same(node.model(), other.model())
                && same(node.dataset(), other.dataset()) && same(node.caseId(), other.caseId())) {
            return true;
        }
        // names that differ can only join alike when one holds the separator
        return separator && joined(node.eval(), node.model(), node.dataset(), node.caseId(), String.valueOf(repeat))
                .equals(joined(other.eval(), other.model(), other.dataset(), other.caseId(),
                        String.valueOf(otherRepeat)));
    }

    /** Whether two records are of one case: {@code eval, dataset, case id} as {@link #sameCell} joins them. */
    static boolean sameCase(Shown node, Shown other, boolean separator) {
        if (same(node.eval(), other.eval()) && same(node.dataset(), other.dataset())
                && same(node.caseId(), other.caseId())) {
            return true;
        }
        return separator && joined(node.eval(), node.dataset(), node.caseId())
                .equals(joined(other.eval(), other.dataset(), other.caseId()));
    }

    private static String joined(String... names) {
        return String.join("\u0000", Arrays.stream(names).map(String::valueOf).toList());
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

    /** Whether a record's eval, model, dataset or case id holds the separator of the keys {@link #sameCell} joins. */
    static boolean separator(Shown node) {
        return separator(node.eval()) || separator(node.model()) || separator(node.dataset())
                || separator(node.caseId());
    }

    private static boolean separator(String text) {
        return text != null && text.indexOf('\u0000') >= 0;
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
        Integer index = strings.get(key);
        if (index == null) {
            index = strings.size();
            strings.put(key, index);
        }
        return index;
    }

    private void openChunk() throws IOException {
        json.writeRaw("<script type=\"application/json\" class=\"arena-chunk\">");
        json.writeStartArray();
        inChunk = 0;
    }

    private void closeChunk() throws IOException {
        json.writeEndArray();
        json.writeRaw("</script>\n");
    }
}
