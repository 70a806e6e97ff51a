package dev.agentarena.junit.engine.reporting;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.report.CaseReport;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.Decimals;
import dev.agentarena.junit.engine.results.LongTexts;
import dev.agentarena.junit.engine.results.PreparedByResult;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ScoreSummary;
import dev.agentarena.junit.engine.results.TrajectoryRecord;
import dev.agentarena.junit.engine.results.ShardManifest;

/**
 * {@code results.jsonl}: one JSON object per result, each line written whole, so a killed run leaves a readable file
 * that holds every finished result.
 *
 * <p>A line is encoded first (as UTF-8, on the call pool's thread that computed the result, when it was computed
 * there) and then handed to the file whole. The lines of results that have a test of their own are on disk when
 * their test has finished: {@link #resultReported} writes its line, and every line before it, at once. The lines of
 * results without a test ({@code arena.nodes=summary} or {@code failures}) are gathered in a buffer of about
 * {@value #BATCH_BYTES} bytes and written together, in one write of whole lines, when the buffer is full, when a test
 * of the run reports a result or a score summary, and at the end of the run ({@link #flush}, {@link #close}): a
 * million lines cost a few thousand writes instead of a million. Whatever is written is whole lines, in report
 * order. A run killed (or a JVM that crashes) between two writes loses the lines of the buffer not written yet, at
 * most a buffer's worth of results without a test, which no finished test stands for yet: their summary tests run
 * after the dataset's last case, and the buffer is written before the first of them reports. (One thing no writer of
 * a file can rule out: a process killed inside a write, which Linux may end at a page boundary. That was so of a line
 * longer than a page before; a batch's write lasts some microseconds longer. A last line without its line break is
 * such a cut, and the next run truncates the file.)
 *
 * <p>When a write fails part way (a disk that fills up), the file is cut back to where the write began, so the file
 * never holds half a line, and the error names the file and the results whose lines were lost (in summary mode, every
 * line of the buffer: the summary test of the result that made it write fails, see {@code ScoreSummaries}). The next
 * result opens the file again and goes on after the last whole line.
 *
 * <p>Opened on the first result, so a run without evals leaves an earlier file alone; truncated by the first
 * execution of the launcher session that writes it and appended to by the later ones (see {@link ReportingSession}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ResultsFile implements RunListener, AutoCloseable {

    /** The file's name in the output directory. */
    public static final String FILE_NAME = "results.jsonl";

    /** Field names as in the results file: snake case. */
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .build();

    /** Detail values as the rest of the engine's JSON writes them (the attachments, the judge's prompt). */
    private static final ObjectMapper DETAIL = Json.MAPPER;

    /**
     * How many bytes of lines of results without a test are gathered before they are written: some hundred lines of
     * a summary-mode run, and the most such a killed run can lose.
     */
    static final int BATCH_BYTES = 64 * 1024;

    private final Path directory;
    private final Path file;
    private final ReportingSession session;
    /**
     * How many lines prepared ahead are kept at most; more than the run's cases in flight times their scorers. Past
     * it (results computed and never reported: scorers the launcher did not select) a prepared line is let go of,
     * and its result, if reported later, is encoded again on the reporting thread (see {@link PreparedByResult}).
     */
    static final int PREPARED_LINES = PreparedByResult.SLOTS;

    private final Lines lines = new Lines();
    private final ThreadLocal<Lines> workerLines = ThreadLocal.withInitial(Lines::new);
    // lines prepared on the call pool, by the identity of their record, taken when it is reported
    private final PreparedByResult<byte[]> prepared = new PreparedByResult<>();
    private final Opener opener;
    // guarded by this
    private FileChannel channel;
    /** Where the channel's file ends: the position of the next write, kept here rather than asked of the file. */
    private long end;
    private boolean written;
    /** Whole lines, encoded, not written yet. */
    private byte[] batch = new byte[BATCH_BYTES + 1024];
    private int batched;
    /** How many lines the batch holds, and the first and last of them, for the error when it cannot be written. */
    private int batchedLines;
    private ResultRecord firstBatched;
    private ResultRecord lastBatched;

    /** The results file of an output directory; nothing is opened yet. */
    public ResultsFile(Path directory, ReportingSession session) {
        this(directory, session, FileChannel::open);
    }

    /**
     * The results file of an output directory, its lines' {@code input} and {@code reference} cut at a limit.
     *
     * @param textLimit {@code arena.output.text-limit}: 0 for none
     */
    public ResultsFile(Path directory, ReportingSession session, int textLimit) {
        this(directory, session, FileChannel::open);
        this.lines.textLimit = textLimit;
    }

    /** With another way to open the file: a test's channel that fails as a full disk does. */
    ResultsFile(Path directory, ReportingSession session, Opener opener) {
        this.directory = directory;
        this.file = directory.resolve(FILE_NAME).toAbsolutePath().normalize();
        this.session = session;
        this.opener = opener;
    }

    /** Opens the file's channel. */
    @FunctionalInterface
    interface Opener {
        FileChannel open(Path file, Set<StandardOpenOption> options) throws IOException;
    }

    /** The file written. */
    public Path file() {
        return file;
    }

    /** Whether this execution wrote any result (or holds one to write at the next {@link #flush}). */
    public synchronized boolean writtenAny() {
        return written;
    }

    /** Serialises the result on the thread that computed it, so that reporting it only writes the line. */
    @Override
    public void resultComputed(ResultRecord record, CaseTranscript transcript) {
        Lines worker = workerLines.get();
        worker.textLimit = lines.textLimit;
        byte[] line = worker.bytes(record, detail(transcript), trajectory(transcript), transcript);
        prepared.put(record, line);
    }

    /** A result with a test: its line, and every line gathered before it, are on disk when this returns. */
    @Override
    public synchronized void resultReported(ResultRecord record, CaseTranscript transcript) {
        add(record, transcript);
        writeBatch();
    }

    /** A result without a test: its line joins the batch, written once the batch is full (see the class comment). */
    @Override
    public synchronized void resultWithoutTest(ResultRecord record, CaseTranscript transcript) {
        add(record, transcript);
        if (batched >= BATCH_BYTES) {
            writeBatch();
        }
    }

    /** A summary test reports: the lines of the results it stands for are written first. */
    @Override
    public synchronized void scoreSummaryReported(ScoreSummary summary) {
        writeBatch();
    }

    /**
     * Writes the lines gathered and not written yet, before the file is read (the leaderboard, the report, a shard's
     * manifest).
     *
     * @throws UncheckedIOException when they cannot be written, naming the file and the results lost
     */
    public synchronized void flush() {
        writeBatch();
    }

    /** The result's line, prepared on the pool or encoded now, added to the batch. */
    private void add(ResultRecord record, CaseTranscript transcript) {
        byte[] line = prepared.take(record);
        if (line == null) {
            line = lines.bytes(record, detail(transcript), trajectory(transcript), transcript);
        }
        if (batched + line.length > batch.length) {
            batch = Arrays.copyOf(batch, Math.max(batch.length * 2, batched + line.length));
        }
        System.arraycopy(line, 0, batch, batched, line.length);
        batched += line.length;
        if (batchedLines++ == 0) {
            firstBatched = record;
        }
        lastBatched = record;
        written = true;
    }

    /** Writes the batch in one go, whole lines; on a failure, cuts the file back to where the batch began. */
    private void writeBatch() {
        if (batched == 0) {
            return;
        }
        int lineCount = batchedLines;
        ResultRecord first = firstBatched;
        ResultRecord last = lastBatched;
        ByteBuffer buffer = ByteBuffer.wrap(batch, 0, batched);
        // the batch is let go of whether or not it is written: a failed write reports its lines as lost
        batched = 0;
        batchedLines = 0;
        firstBatched = null;
        lastBatched = null;
        long start = -1;
        try {
            if (channel == null) {
                channel = open();
            }
            start = end;
            while (buffer.hasRemaining()) {
                end += channel.write(buffer);
            }
        }
        catch (IOException e) {
            String cutBack = cutBack(start, lineCount);
            // the next result opens the file again (appending), so one failed write does not lose every later one
            closeQuietly();
            throw new UncheckedIOException("Cannot write the " + (lineCount == 1 ? "result of " + name(first)
                    : lineCount + " results from " + name(first) + " to " + name(last)) + " to " + file + " (" + e
                    + ")" + cutBack, e);
        }
        finally {
            if (batch.length > 4 * BATCH_BYTES) {
                // a very long line grew it: not kept for the rest of the run
                batch = new byte[BATCH_BYTES + 1024];
            }
        }
    }

    private static String name(ResultRecord record) {
        return record.caseId() + "/" + record.scorer();
    }

    /** After a failed write: the file cut back to where the write began, so that no half line is left. */
    private String cutBack(long start, int lines) {
        if (channel == null || start < 0) {
            return "";
        }
        try {
            if (channel.size() > start) {
                channel.truncate(start);
            }
            end = start;
            return "; the file holds every line written before " + (lines == 1 ? "it" : "them") + ", whole";
        }
        catch (IOException e) {
            return "; and it could not be cut back to its last whole line (" + e + "): remove the last line by hand";
        }
    }

    /** The scorer's detail of a result; none for a result without a transcript (an eval that cannot run). */
    private static Map<String, Object> detail(CaseTranscript transcript) {
        return transcript == null ? Map.of() : transcript.detail();
    }

    /**
     * A result as one line of JSON, without its line break: what {@link #MAPPER} writes of the record (the same
     * fields, in the same order, with the same numbers).
     */
    static String line(ResultRecord record) {
        return new Lines().line(record, Map.of(), null);
    }

    /**
     * Writes results lines field by field with one streaming generator into one buffer, both kept from line to line:
     * a run writes a line per test. Not thread-safe; the results file's lock guards it.
     */
    static final class Lines {

        private final StringBuilder text = new StringBuilder(512);
        private final Writer into = new Writer() {
            @Override
            public void write(char[] chars, int offset, int length) {
                text.append(chars, offset, length);
            }

            @Override
            public void write(String string, int offset, int length) {
                text.append(string, offset, offset + length);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        private JsonGenerator json;
        /** Where {@code input} and {@code reference} are cut; 0 for nowhere. */
        int textLimit = 4000;

        /** What the line's text is encoded into, kept from line to line. */
        private byte[] utf8 = new byte[1024];
        /** The lines without a detail or a trajectory, written without the generator. */
        private final ResultLineBytes plain = new ResultLineBytes();

        String line(ResultRecord record) {
            return line(record, Map.of(), null);
        }

        /**
         * The record's line as {@link #line} writes it, and its line break, as UTF-8, every unpaired surrogate as
         * U+FFFD (see {@link dev.agentarena.junit.engine.results.SinkText#wellFormed}): the bytes
         * {@code results.jsonl} holds.
         */
        byte[] bytes(ResultRecord record, Map<String, Object> detail, TrajectoryRecord trajectory,
                CaseTranscript transcript) {
            if (detail.isEmpty() && trajectory == null) {
                if (transcript == null) {
                    return plain.line(record, null, null);
                }
                return plain.line(record, LongTexts.caseText(transcript.prompt(), textLimit),
                        LongTexts.caseText(transcript.reference(), textLimit));
            }
            render(record, detail, trajectory, transcript);
            int length = text.length();
            if (utf8.length < 3 * length + 1) {
                utf8 = new byte[Math.max(2 * utf8.length, 3 * length + 1)];
            }
            int size = encode(text, utf8);
            utf8[size++] = '\n';
            byte[] line = Arrays.copyOf(utf8, size);
            if (utf8.length > 1 << 20) {
                // a very long line grew it: not kept for the rest of the run
                utf8 = new byte[1024];
            }
            return line;
        }

        String line(ResultRecord record, Map<String, Object> detail, TrajectoryRecord trajectory) {
            return line(record, detail, trajectory, null);
        }

        /**
         * The record's line, followed by the scorer's {@code detail} when it gave any, and the case's trajectory when
         * it has one (a {@code trajectory} field, and a {@code trajectory_file} when a text of it was cut).
         */
        String line(ResultRecord record, Map<String, Object> detail, TrajectoryRecord trajectory,
                CaseTranscript transcript) {
            render(record, detail, trajectory, transcript);
            return text.toString();
        }

        private void render(ResultRecord record, Map<String, Object> detail, TrajectoryRecord trajectory,
                CaseTranscript transcript) {
            text.setLength(0);
            try {
                if (json == null) {
                    json = MAPPER.getFactory().createGenerator(into);
                    // lines are taken one by one: no separator between them
                    json.setRootValueSeparator(null);
                }
                write(json, record, detail, trajectory);
                if (transcript != null) {
                    caseText(json, "input", transcript.prompt(), textLimit);
                    caseText(json, "reference", transcript.reference(), textLimit);
                }
                json.writeEndObject();
                json.flush();
            }
            catch (IOException | RuntimeException e) {
                // a generator left inside an object would write the next line into it
                json = null;
                throw new IllegalStateException("Cannot serialise result " + record.caseId() + "/" + record.scorer(),
                        e);
            }
        }
    }

    /**
     * Encodes the text as UTF-8 into {@code into} (at least three bytes per char long), an unpaired surrogate as
     * U+FFFD: what {@code SinkText.wellFormed(text).getBytes(UTF_8)} gives, without the copies.
     *
     * @return how many bytes it wrote
     */
    static int encode(CharSequence text, byte[] into) {
        return encode(text, 0, text.length(), into, 0);
    }

    /**
     * Encodes {@code text[from, to)} as UTF-8 into {@code into} from {@code at}, an unpaired surrogate as U+FFFD; a
     * pair split by {@code to} counts as unpaired, so a caller passes whole runs of non-ASCII chars.
     *
     * @return where the next byte goes
     */
    static int encode(CharSequence text, int from, int to, byte[] into, int at) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                into[at++] = (byte) c;
            }
            else if (c < 0x800) {
                into[at++] = (byte) (0xC0 | c >> 6);
                into[at++] = (byte) (0x80 | c & 0x3F);
            }
            else if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(text.charAt(i + 1))) {
                int point = Character.toCodePoint(c, text.charAt(++i));
                into[at++] = (byte) (0xF0 | point >> 18);
                into[at++] = (byte) (0x80 | point >> 12 & 0x3F);
                into[at++] = (byte) (0x80 | point >> 6 & 0x3F);
                into[at++] = (byte) (0x80 | point & 0x3F);
            }
            else {
                char encoded = Character.isSurrogate(c) ? '\uFFFD' : c;
                into[at++] = (byte) (0xE0 | encoded >> 12);
                into[at++] = (byte) (0x80 | encoded >> 6 & 0x3F);
                into[at++] = (byte) (0x80 | encoded & 0x3F);
            }
        }
        return at;
    }

    /**
     * Whether a line carries {@code queue_ms}: only when its calls waited for their turn, so that a run without
     * rate limits writes the lines it always wrote.
     */
    static boolean writesQueue(ResultRecord record) {
        return record.queueMs() != null;
    }

    private static void write(JsonGenerator json, ResultRecord record, Map<String, Object> detail,
            TrajectoryRecord trajectory) throws IOException {
        json.writeStartObject();
        json.writeStringField("eval", record.eval());
        json.writeStringField("model", record.model());
        json.writeStringField("dataset", record.dataset());
        json.writeStringField("case_id", record.caseId());
        json.writeStringField("scorer", record.scorer());
        json.writeStringField("scorer_version", record.scorerVersion());
        json.writeStringField("registry_name", record.registryName());
        json.writeNumberField("repeat", record.repeat());
        json.writeFieldName("score");
        if (record.score() == null) {
            json.writeNull();
        }
        else {
            writeNumber(json, record.score());
        }
        json.writeFieldName("passed");
        if (record.passed() == null) {
            json.writeNull();
        }
        else {
            json.writeBoolean(record.passed());
        }
        json.writeStringField("status", record.status() == null ? null : record.status().jsonName());
        json.writeStringField("reason", record.reason());
        json.writeObjectFieldStart("metrics");
        for (Map.Entry<String, Double> metric : record.metrics().entrySet()) {
            json.writeFieldName(metric.getKey());
            if (metric.getValue() == null) {
                json.writeNull();
            }
            else {
                writeNumber(json, metric.getValue());
            }
        }
        json.writeEndObject();
        json.writeFieldName("latency_ms");
        if (record.latencyMs() == null) {
            json.writeNull();
        }
        else {
            json.writeNumber(record.latencyMs());
        }
        if (writesQueue(record)) {
            json.writeNumberField("queue_ms", record.queueMs());
        }
        json.writeNumberField("tokens_in", record.tokensIn());
        json.writeNumberField("tokens_out", record.tokensOut());
        json.writeNumberField("tokens_cached", record.tokensCached());
        json.writeFieldName("cost_usd");
        writeNumber(json, record.costUsd());
        json.writeBooleanField("cached", record.cached());
        json.writeFieldName("weight");
        writeNumber(json, record.weight());
        json.writeArrayFieldStart("tags");
        for (String tag : record.tags()) {
            json.writeString(tag);
        }
        json.writeEndArray();
        json.writeStringField("error", record.error());
        json.writeStringField("output", record.output());
        if (!detail.isEmpty()) {
            json.writeFieldName("detail");
            json.writeRawValue(detailJson(detail));
        }
        if (trajectory != null) {
            json.writeFieldName("trajectory");
            MAPPER.writeValue(json, trajectory.steps());
            if (trajectory.file() != null) {
                json.writeStringField("trajectory_file", trajectory.file());
            }
        }
    }

    /**
     * The case's input (the prompt as sent) or reference, for {@code report.html}, when it has one: cut at the text
     * limit, saying so (the whole prompt is in Allure's attachment).
     */
    private static void caseText(JsonGenerator json, String field, String text, int limit) throws IOException {
        String shown = LongTexts.caseText(text, limit);
        if (shown != null) {
            json.writeStringField(field, shown);
        }
    }

    /**
     * The scorer's detail as one line of JSON, as the Allure attachment writes it. It is the scorer's own data and
     * may not serialise (contain itself, nest deeper than any writer allows, a getter that throws): the result's line
     * then says so in its place, and is never lost.
     */
    private static TrajectoryRecord trajectory(CaseTranscript transcript) {
        return transcript == null ? null : transcript.trajectory();
    }

    private static String detailJson(Map<String, Object> detail) throws IOException {
        try {
            return DETAIL.writeValueAsString(detail);
        }
        catch (JsonProcessingException e) {
            return DETAIL.writeValueAsString("not serialisable as JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * Writes a double as the generator would ({@link Double#toString} for a finite value), remembering the text: a
     * run's scores, costs and weights take few distinct values, and each results line has several.
     */
    private static void writeNumber(JsonGenerator json, double value) throws IOException {
        if (!Double.isFinite(value)) {
            json.writeNumber(value);
            return;
        }
        json.writeNumber(Decimals.shortest(value));
    }

    private FileChannel open() throws IOException {
        Files.createDirectories(directory);
        boolean first = session.firstOpen(file);
        if (first) {
            removePreviousSummaries();
        }
        // not APPEND: a channel opened to append cannot be cut back; every line is written at the end all the same
        FileChannel opened = opener.open(file, first
                ? Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)
                : Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE));
        end = opened.size();
        opened.position(end);
        return opened;
    }

    /**
     * A new run starts: what the previous run summarised from its results (the leaderboards, the whole texts of cut
     * reasons) goes, so a run killed before its end never leaves a leaderboard that disagrees with its
     * {@code results.jsonl}.
     */
    private void removePreviousSummaries() throws IOException {
        Files.deleteIfExists(directory.resolve(Leaderboard.JSON_FILE));
        Files.deleteIfExists(directory.resolve(Leaderboard.HTML_FILE));
        Files.deleteIfExists(directory.resolve(ShardManifest.FILE_NAME));
        Files.deleteIfExists(directory.resolve(CaseReport.FILE_NAME));
        deleteTree(directory.resolve(Leaderboards.EVAL_DIRECTORY));
        deleteTree(directory.resolve(LongTexts.DIRECTORY));
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(path);
            }
        }
    }

    private void closeQuietly() {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        }
        catch (IOException e) {
            // already failing: the caller reports the first error
        }
        channel = null;
    }

    /** Writes what is gathered, then closes the file. */
    @Override
    public synchronized void close() {
        try {
            writeBatch();
        }
        finally {
            closeChannel();
        }
    }

    private void closeChannel() {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot close " + file, e);
        }
        finally {
            channel = null;
        }
    }
}
