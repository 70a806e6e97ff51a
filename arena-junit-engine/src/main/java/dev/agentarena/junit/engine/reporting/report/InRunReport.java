package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.OutputFiles;
import dev.agentarena.junit.engine.results.PreparedByResult;
import dev.agentarena.junit.engine.results.LongTexts;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.SinkText;

/**
 * The data of {@code report.html} gathered while the run reports its results, so that the end of the run only
 * assembles the page: re-reading and re-parsing {@code results.jsonl} there was most of the report's cost (about 14 s
 * of wall time at a million results).
 *
 * <p>It hears every result the results file writes, in the file's order (the run's wiring hands it each result under
 * the results file's lock, once the file has written the result's line), and writes the page's record of it as
 * {@link CaseReport}'s pass over the file would, from the values the line gives when it is read back ({@link Shown}):
 * {@code input} and {@code reference} cut at the text limit as the results file cuts them, every unpaired surrogate
 * replaced by U+FFFD as the file's encoding replaces it, numbers as Jackson reads back the text it wrote, the metrics
 * and the trajectory as the trees the line's parse builds. The records go, in the page's data chunks, already made
 * safe for the page and as the page's bytes ({@link DataBytes}), to a spill file in the output directory (the run's
 * records are never held in memory; the string table is, as in a pass over the file); the end of the run copies it
 * into the page between the template and the string table, and deletes it, as does {@link #close}.
 *
 * <p>Where its page could differ from the one read back from the file, it gives up ({@link #usable} turns false) and
 * the run writes the page from the file, as before: a result whose line the results file failed to write, a value the
 * file's reader refuses (a missing status, a score that is not a finite number, ...) or reads back otherwise (a metric
 * named with an unpaired surrogate), a spill file that cannot be written. The run's wiring does not use it at all for
 * a run compared with a previous one ({@code arena.report.compare-to}, a baseline file): the comparison needs the whole
 * run's aggregate per case before the first record, so that page is still written from the file at the end; nor for
 * an execution that appends to a results file an earlier execution of the launcher session began (the page holds
 * those results too).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class InRunReport implements AutoCloseable {

    /** The trajectory's steps as the results file writes them (its mapper: snake case). */
    private static final ObjectMapper STEPS = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .build();

    /** Says at DEBUG how each page was written, and why the data gathered was given up. */
    private static final System.Logger LOG = System.getLogger(InRunReport.class.getName());

    private final Path directory;
    private final int textLimit;
    private final CaseReport.Page page = new CaseReport.Page();
    private Path spill;
    private OutputStream chunks;
    /** Written under the lock; volatile for {@link #prepare} on the call pool, which takes none. */
    private volatile boolean abandoned;
    /** The reporting thread's {@link Repeats}; each thread of the call pool has its own. */
    private final Repeats repeats = new Repeats();
    private final ThreadLocal<Repeats> poolRepeats = ThreadLocal.withInitial(Repeats::new);
    /** What {@link #prepare} made of each result on the call pool, until {@link #add} takes it. */
    private final PreparedByResult<Shown> prepared = new PreparedByResult<>();

    /**
     * The last text of each field that repeats from result to result (eval, model, dataset, scorer and its version),
     * and its well-formed form: the same instance comes back for every result, and is checked once. One per thread.
     */
    private static final class Repeats {
        private final String[] raw = new String[5];
        private final String[] fixed = new String[5];

        String of(int field, String text) {
            if (text == null) {
                return null;
            }
            if (text != raw[field]) {
                raw[field] = text;
                fixed[field] = SinkText.wellFormed(text);
            }
            return fixed[field];
        }
    }

    /**
     * Gathers the report of a run; nothing is opened before the first result.
     *
     * @param outputDirectory where the results file and the page go
     * @param textLimit {@code arena.output.text-limit}, as the results file cuts {@code input} and {@code reference}
     *     (0 for nowhere)
     */
    public InRunReport(Path outputDirectory, int textLimit) {
        this.directory = outputDirectory;
        this.textLimit = textLimit;
    }

    /**
     * A result whose line the results file has just written. Never throws: a problem makes the run write its page
     * from the file instead.
     */
    public synchronized void add(ResultRecord record, CaseTranscript transcript) {
        if (abandoned) {
            return;
        }
        try {
            Shown shown = prepared.take(record);
            if (shown == null) {
                shown = shown(record, transcript, repeats);
            }
            if (shown == null) {
                abandon("the result " + record.caseId() + "/" + record.scorer() + " may read back otherwise");
                return;
            }
            if (chunks == null) {
                // the results file may not have made the directory yet: it writes lines without a test in batches
                Files.createDirectories(directory);
                spill = OutputFiles.temporaryBeside(directory.resolve(CaseReport.FILE_NAME + ".records"));
                // the page's records buffer their bytes themselves
                chunks = Files.newOutputStream(spill);
                page.begin(chunks);
            }
            page.add(shown);
        }
        catch (IOException | RuntimeException e) {
            abandon("the result " + record.caseId() + "/" + record.scorer() + " could not be gathered: " + e);
        }
    }

    /**
     * Makes what the page shows of a result on the thread that computed it (the call pool), before its line is
     * written, so that {@link #add} on the reporting thread, which every result waits for, only writes its record: the
     * same values {@link #add} would make (they depend on the result alone), found by the record's identity. Never
     * throws: a result it cannot make, or one it lets go of, is made again by {@link #add}, which says what went wrong.
     */
    public void prepare(ResultRecord record, CaseTranscript transcript) {
        if (abandoned) {
            return;
        }
        try {
            Shown shown = shown(record, transcript, poolRepeats.get());
            if (shown != null) {
                prepared.put(record, shown);
            }
        }
        catch (IOException | RuntimeException e) {
            // made again by add, which gives the page up and says why
        }
    }

    /**
     * The page is written from the file: it may lack a result this report has (its write failed), or this report
     * could not gather one.
     *
     * @param why what went wrong, said at DEBUG
     */
    public synchronized void abandon(String why) {
        if (!abandoned) {
            LOG.log(System.Logger.Level.DEBUG, () -> "report.html in " + directory
                    + " will be written from the results file: " + why);
        }
        abandoned = true;
        close();
    }

    /** Whether it holds every result of the run's results file, so that {@link #write} can write the page. */
    public synchronized boolean usable() {
        return !abandoned && chunks != null;
    }

    /**
     * Writes the page: the template, the records gathered, the string table and the meta; then deletes the spill
     * file. Once only.
     *
     * @param results the run's {@code results.jsonl}, which the meta names
     * @param evals the eval classes by eval name, for unique ids; may be empty
     * @param target where the page goes
     * @throws IOException when the spill file cannot be read or the page written, naming the file
     * @throws IllegalStateException when it is not {@link #usable}
     */
    public synchronized CaseReport.Outcome write(Path results, Map<String, CaseReport.EvalClass> evals, Path target)
            throws IOException {
        if (!usable()) {
            throw new IllegalStateException("the report gathered during the run is incomplete; write it from "
                    + results);
        }
        try {
            page.endChunks();
            chunks.close();
            String[] template = CaseReport.template();
            Path file = CaseReport.writeAtomically(target, (out, writer) -> {
                writer.write(template[0]);
                writer.flush();
                Files.copy(spill, out);
                page.end(writer, template, evals, results);
            });
            LOG.log(System.Logger.Level.DEBUG, () -> "report.html in " + directory + " assembled from the "
                    + page.count + " results gathered during the run");
            return new CaseReport.Outcome(Optional.of(file), page.count, Optional.empty());
        }
        finally {
            close();
        }
    }

    /** Deletes the spill file, if any. */
    @Override
    public synchronized void close() {
        try {
            if (chunks != null) {
                chunks.close();
            }
        }
        catch (IOException e) {
            // deleted all the same
        }
        try {
            if (spill != null) {
                Files.deleteIfExists(spill);
            }
        }
        catch (IOException e) {
            // a temporary file left in the output directory, named as one
        }
        chunks = null;
        spill = null;
        abandoned = true;
    }

    /**
     * The result's values as its results line gives them when read back, or {@code null} when the reader would refuse
     * the line or could read back other values.
     */
    private Shown shown(ResultRecord record, CaseTranscript transcript, Repeats repeats) throws IOException {
        if (record.eval() == null || record.model() == null || record.caseId() == null || record.scorer() == null
                || record.status() == null || record.repeat() < 0 || !Double.isFinite(record.costUsd())) {
            return null;
        }
        Double score = record.score();
        if (score != null ? !Double.isFinite(score) : record.status().counts()) {
            return null;
        }
        ObjectNode metrics = null;
        if (!record.metrics().isEmpty()) {
            metrics = metrics(record.metrics());
            if (metrics == null) {
                return null;
            }
        }
        List<String> tags = record.tags();
        for (int i = 0; i < tags.size(); i++) {
            String tag = tags.get(i);
            if (tag == null || SinkText.wellFormed(tag) != tag) {
                tags = readBack(tags);
                break;
            }
        }
        JsonNode trajectory = null;
        // the texts the page shows, in the order of Shown's bits of plain texts
        String[] texts = {record.caseId(), record.reason(), record.error(), record.output(), null, null};
        if (transcript != null) {
            texts[4] = LongTexts.caseText(transcript.prompt(), textLimit);
            texts[5] = LongTexts.caseText(transcript.reference(), textLimit);
            if (transcript.trajectory() != null) {
                trajectory = trajectory(transcript);
            }
        }
        int plain = 0;
        for (int i = 0; i < texts.length; i++) {
            String text = texts[i];
            if (text != null) {
                // each well-formed as its results line reads it back; a plain text is: one look at each character
                // tells both
                if (DataBytes.plain(text)) {
                    plain |= 1 << i;
                }
                else {
                    texts[i] = SinkText.wellFormed(text);
                }
            }
        }
        return new Shown(repeats.of(0, record.eval()), repeats.of(1, record.model()), repeats.of(2, record.dataset()),
                texts[0], repeats.of(3, record.scorer()), repeats.of(4, record.scorerVersion()), record.repeat(), score,
                record.status(), texts[1], metrics, record.latencyMs(), record.queueMs(), record.costUsd(),
                record.tokensIn(),
                record.tokensOut(), record.cached(), record.tokensCached(), texts[2], texts[3], tags, texts[4],
                texts[5], trajectory, plain);
    }

    /**
     * The metrics as the tree their results line reads back as, or {@code null} when it could read back otherwise (a
     * value that is not a finite number, two names that differ only in an unpaired surrogate). Few results have any.
     */
    private static ObjectNode metrics(Map<String, Double> values) {
        ObjectNode metrics = Json.MAPPER.createObjectNode();
        for (Map.Entry<String, Double> metric : values.entrySet()) {
            Double value = metric.getValue();
            // two names that differ only in an unpaired surrogate would read back as one
            if (!metric.getKey().equals(SinkText.wellFormed(metric.getKey()))
                    || value != null && !Double.isFinite(value)) {
                return null;
            }
            metrics.set(metric.getKey(), value == null ? NullNode.getInstance() : DoubleNode.valueOf(value));
        }
        return metrics;
    }

    /** The trajectory's steps as the tree its results line reads back as, or {@code null}. */
    private static JsonNode trajectory(CaseTranscript transcript) throws IOException {
        JsonNode trajectory = ResultLines.tree(SinkText.wellFormed(
                STEPS.writeValueAsString(transcript.trajectory().steps())));
        return trajectory.isNull() ? null : trajectory;
    }

    /** Tags as a results line gives them back: a null one as the text "null", each well-formed. */
    private static List<String> readBack(List<String> tags) {
        List<String> shown = new ArrayList<>(tags.size());
        for (String tag : tags) {
            // a null tag is written as null, which reads back as the text "null"
            shown.add(tag == null ? "null" : SinkText.wellFormed(tag));
        }
        return shown;
    }

}
