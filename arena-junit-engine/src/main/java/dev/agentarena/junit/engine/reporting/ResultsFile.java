package dev.agentarena.junit.engine.reporting;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.report.CaseReport;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.LongTexts;
import dev.agentarena.junit.engine.results.PreparedByResult;
import dev.agentarena.junit.engine.results.ResultLineCodec;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ScoreSummary;
import dev.agentarena.junit.engine.results.ShardManifest;

/**
 * {@code results.jsonl}: one line per result, as {@link ResultLineCodec} writes it, each line written whole, so that a
 * killed run leaves a readable file that holds every finished result.
 *
 * <p>A line is encoded on the thread that computed its result, then handed to the file whole. A result with a test is
 * on disk, with every line before it, when its test has finished. Lines of results without a test
 * ({@code arena.nodes=summary} or {@code failures}) are gathered up to about {@value #BATCH_BYTES} bytes and written
 * together, whole and in report order, when the buffer is full, before a test or a summary test reports, and at the
 * end ({@link #flush}, {@link #close}): a killed run loses at most that buffer, which no finished test stands for yet.
 *
 * <p>A write that fails part way (a full disk) is cut back to where it began, so the file never holds half a line; the
 * error names the file and the results lost, and the next result opens the file again after its last whole line.
 * Opened on the first result, so a run without evals leaves an earlier file alone; truncated by the first execution
 * of the launcher session that writes it and appended to by the later ones (see {@link ReportingSession}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ResultsFile implements RunListener, AutoCloseable {

    /** The file's name in the output directory. */
    public static final String FILE_NAME = "results.jsonl";

    /**
     * How many bytes of lines of results without a test are gathered before they are written: some hundred lines of
     * a summary-mode run, and the most such a killed run can lose.
     */
    static final int BATCH_BYTES = 64 * 1024;

    /** Where a results file made without a limit cuts {@code input} and {@code reference}. */
    private static final int DEFAULT_TEXT_LIMIT = 4000;

    private final Path directory;
    private final Path file;
    private final ReportingSession session;
    /**
     * How many lines prepared ahead are kept at most; more than the run's cases in flight times their scorers. Past
     * it (results computed and never reported: scorers the launcher did not select) a prepared line is let go of,
     * and its result, if reported later, is encoded again on the reporting thread (see {@link PreparedByResult}).
     */
    static final int PREPARED_LINES = PreparedByResult.SLOTS;

    /** The reporting thread's writer, guarded by this; a result computed on the pool is written by the pool's. */
    private final ResultLineCodec.Writer lines;
    private final ThreadLocal<ResultLineCodec.Writer> workerLines;
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
        this(directory, session, DEFAULT_TEXT_LIMIT, FileChannel::open);
    }

    /**
     * The results file of an output directory, its lines' {@code input} and {@code reference} cut at a limit.
     *
     * @param textLimit {@code arena.output.text-limit}: 0 for none
     */
    public ResultsFile(Path directory, ReportingSession session, int textLimit) {
        this(directory, session, textLimit, FileChannel::open);
    }

    /** With another way to open the file: a test's channel that fails as a full disk does. */
    ResultsFile(Path directory, ReportingSession session, Opener opener) {
        this(directory, session, DEFAULT_TEXT_LIMIT, opener);
    }

    private ResultsFile(Path directory, ReportingSession session, int textLimit, Opener opener) {
        this.lines = new ResultLineCodec.Writer(textLimit);
        this.workerLines = ThreadLocal.withInitial(() -> new ResultLineCodec.Writer(textLimit));
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
        prepared.put(record, workerLines.get().line(record, transcript));
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
            line = lines.line(record, transcript);
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
