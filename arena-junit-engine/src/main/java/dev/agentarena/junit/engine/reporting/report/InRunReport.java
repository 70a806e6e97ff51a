package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
import dev.agentarena.junit.engine.results.LongTexts;
import dev.agentarena.junit.engine.results.PreparedByResult;
import dev.agentarena.junit.engine.results.ResultLineCodec;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.SinkText;

/**
 * {@code report.html} written while the run reports its results, so that the end of the run only ends the page: the
 * page {@link CaseReport} would read back from {@code results.jsonl}, byte for byte. It hears every result right after
 * the results file wrote its line, in the file's order, and writes its record into the page's temporary file from the
 * values the line gives when read back ({@link #shown}: texts cut and made well-formed as the file does, metrics and
 * trajectory as the trees its parse builds).
 *
 * <p>Where its page could differ from the one read back, it gives up ({@link #usable} turns false) and the run writes
 * the page from the file: a result whose line the file failed to write, a value the file's reader refuses or reads
 * back otherwise, a page that cannot be written. The run's wiring does not use it for a run compared with a previous
 * one (a record's change needs the whole run's aggregate first), nor for an execution that appends to a results file
 * an earlier execution of the launcher session began.
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
    private PageFile page;
    private PageData data;
    /** Written under the lock; volatile for {@link #prepare} on the call pool, which takes none. */
    private volatile boolean abandoned;
    /** What {@link #prepare} made of each result on the call pool, until {@link #add} takes it. */
    private final PreparedByResult<Shown> prepared = new PreparedByResult<>();

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
                shown = shown(record, transcript);
            }
            if (shown == null) {
                abandon("the result " + record.caseId() + "/" + record.scorer() + " may read back otherwise");
                return;
            }
            if (page == null) {
                // the results file may not have made the directory yet: it writes lines without a test in batches
                Files.createDirectories(directory);
                page = PageFile.open(directory.resolve(CaseReport.FILE_NAME));
                data = new PageData(page.json());
            }
            data.add(shown);
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
            Shown shown = shown(record, transcript);
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

    /** Whether it holds every result of the run's results file, so that {@link #write} can end the page. */
    public synchronized boolean usable() {
        return !abandoned && page != null;
    }

    /**
     * Ends the page (the string table, the meta, the template's tail) and moves it to the target. Once only.
     *
     * @param results the run's {@code results.jsonl}, which the meta names
     * @param evals the eval classes by eval name, for unique ids; may be empty
     * @param target where the page goes
     * @throws IOException when the page cannot be written, naming the file
     * @throws IllegalStateException when it is not {@link #usable}
     */
    public synchronized CaseReport.Outcome write(Path results, Map<String, CaseReport.EvalClass> evals, Path target)
            throws IOException {
        return write(results, evals, target, TrendBlock.NONE, RedTeamBlock.NONE);
    }

    /**
     * As {@link #write(Path, Map, Path)}, with the run history's trends ({@link TrendBlock}) and the red team's
     * classifiers ({@link RedTeamBlock}).
     */
    public synchronized CaseReport.Outcome write(Path results, Map<String, CaseReport.EvalClass> evals, Path target,
            TrendBlock trends, RedTeamBlock redTeam) throws IOException {
        if (!usable()) {
            throw new IllegalStateException("the report gathered during the run is incomplete; write it from "
                    + results);
        }
        try {
            data.end(page);
            trends.writeTo(page);
            redTeam.writeTo(page);
            page.block("arena-meta", CaseReport.meta(data.count(), evals, results, null));
            Path file = page.commit(target);
            LOG.log(System.Logger.Level.DEBUG, () -> "report.html in " + directory + " assembled from the "
                    + data.count() + " results gathered during the run");
            return new CaseReport.Outcome(Optional.of(file), data.count(), Optional.empty());
        }
        finally {
            close();
        }
    }

    /** Deletes the page's temporary file, if any is left. */
    @Override
    public synchronized void close() {
        try {
            if (page != null) {
                page.close();
            }
        }
        catch (IOException e) {
            // a temporary file left in the output directory, named as one
        }
        page = null;
        abandoned = true;
    }

    /**
     * The result's values as its results line gives them when read back, or {@code null} when the reader would refuse
     * the line or could read back other values.
     */
    private Shown shown(ResultRecord record, CaseTranscript transcript) throws IOException {
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
        String input = null;
        String reference = null;
        JsonNode trajectory = null;
        JsonNode retrieved = null;
        JsonNode verdicts = null;
        JsonNode spans = null;
        if (transcript != null) {
            verdicts = verdicts(transcript.detail());
            input = LongTexts.caseText(transcript.prompt(), textLimit);
            reference = LongTexts.caseText(transcript.reference(), textLimit);
            if (transcript.trajectory() != null) {
                trajectory = trajectory(transcript);
            }
            if (!transcript.retrieved().isEmpty()) {
                retrieved = ResultLines.tree(SinkText.wellFormed(ResultLineCodec.retrievedJson(
                        transcript.retrieved())));
            }
            if (!transcript.spans().isEmpty()) {
                spans = ResultLines.tree(SinkText.wellFormed(ResultLineCodec.spansJson(transcript.spans())));
            }
        }
        // every text as its results line reads back: an unpaired surrogate is U+FFFD there
        return new Shown(wellFormed(record.eval()), wellFormed(record.model()), wellFormed(record.dataset()),
                wellFormed(record.caseId()), wellFormed(record.scorer()), wellFormed(record.scorerVersion()),
                record.repeat(), score, record.status(), wellFormed(record.reason()), metrics, record.latencyMs(),
                record.queueMs(), record.costUsd(), record.tokensIn(), record.tokensOut(), record.cached(),
                record.tokensCached(), wellFormed(record.error()), wellFormed(record.output()), tags(record.tags()),
                wellFormed(input), wellFormed(reference), trajectory, retrieved, verdicts, spans);
    }

    /** The detail's passage verdicts or attack evidence, as its results line reads back ({@link Shown#verdicts}). */
    private static JsonNode verdicts(Map<String, Object> detail) {
        if (!detail.containsKey(Shown.PASSAGE_VERDICTS) && !detail.containsKey(Shown.MISSED)
                && !detail.containsKey(Shown.EVIDENCE)) {
            return null;
        }
        Map<String, Object> both = new LinkedHashMap<>();
        both.put(Shown.PASSAGE_VERDICTS, detail.get(Shown.PASSAGE_VERDICTS));
        both.put(Shown.MISSED, detail.get(Shown.MISSED));
        Shown.ATTACK_KEYS.forEach(key -> both.put(key, detail.get(key)));
        try {
            return Shown.verdicts(ResultLines.tree(SinkText.wellFormed(Json.MAPPER.writeValueAsString(both))));
        }
        catch (IOException | RuntimeException e) {
            // a scorer's own detail that does not serialize: its results line says so; the page shows no verdicts
            return null;
        }
    }

    private static String wellFormed(String text) {
        return text == null ? null : SinkText.wellFormed(text);
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
    private static List<String> tags(List<String> tags) {
        for (String tag : tags) {
            if (tag == null || SinkText.wellFormed(tag) != tag) {
                List<String> shown = new ArrayList<>(tags.size());
                for (String each : tags) {
                    // a null tag is written as null, which reads back as the text "null"
                    shown.add(each == null ? "null" : SinkText.wellFormed(each));
                }
                return shown;
            }
        }
        return tags;
    }
}
