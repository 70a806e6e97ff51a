package dev.agentarena.junit.engine.reporting;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;

import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.LongTexts;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ShardManifest;

/**
 * {@code results.jsonl}: one JSON object per result, each line flushed as it is written, so a killed run leaves a
 * readable file that holds every finished result.
 *
 * <p>Opened on the first result, so a run without evals leaves an earlier file alone; truncated by the first
 * execution of the launcher session that writes it and appended to by the later ones (see {@link ReportingSession}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ResultsFile implements RunListener, AutoCloseable {

    /** The file's name in the output directory. */
    public static final String FILE_NAME = "results.jsonl";

    /** Field names as in the results file: snake case. */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .build();

    private final Path directory;
    private final Path file;
    private final ReportingSession session;
    private BufferedWriter writer;
    private boolean written;

    /** The results file of an output directory; nothing is opened yet. */
    public ResultsFile(Path directory, ReportingSession session) {
        this.directory = directory;
        this.file = directory.resolve(FILE_NAME).toAbsolutePath().normalize();
        this.session = session;
    }

    /** The file written. */
    public Path file() {
        return file;
    }

    /** Whether this execution wrote any result. */
    public synchronized boolean writtenAny() {
        return written;
    }

    @Override
    public synchronized void resultReported(ResultRecord record, CaseTranscript transcript) {
        try {
            if (writer == null) {
                writer = open();
            }
            // One string per line, written whole: the encoder refuses half a surrogate pair (a reason cut inside an
            // emoji), and a refused write would leave half a line and break every later one.
            written = true;
            writer.write(wellFormed(MAPPER.writeValueAsString(record)) + "\n");
            writer.flush();
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialise result " + record.caseId() + "/" + record.scorer(), e);
        }
        catch (IOException e) {
            // the next result opens the file again (appending), so one failed write does not lose every later one
            closeQuietly();
            throw new UncheckedIOException("Cannot write to " + file, e);
        }
    }

    /** The text with every unpaired surrogate replaced by U+FFFD, so that it encodes as UTF-8. */
    static String wellFormed(String text) {
        StringBuilder fixed = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean paired = Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            if (paired) {
                if (fixed != null) {
                    fixed.append(c).append(text.charAt(i + 1));
                }
                i++;
                continue;
            }
            if (Character.isSurrogate(c) && fixed == null) {
                fixed = new StringBuilder(text.length()).append(text, 0, i);
            }
            if (fixed != null) {
                fixed.append(Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return fixed == null ? text : fixed.toString();
    }

    private BufferedWriter open() throws IOException {
        Files.createDirectories(directory);
        boolean first = session.firstOpen(file);
        if (first) {
            removePreviousSummaries();
        }
        return Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, first ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.APPEND);
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
        try {
            writer.close();
        }
        catch (IOException e) {
            // already failing: the caller reports the first error
        }
        writer = null;
    }

    @Override
    public synchronized void close() {
        if (writer == null) {
            return;
        }
        try {
            writer.close();
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot close " + file, e);
        }
        finally {
            writer = null;
        }
    }
}
