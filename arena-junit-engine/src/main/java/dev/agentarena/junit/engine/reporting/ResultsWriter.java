package dev.agentarena.junit.engine.reporting;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * Appends one JSON object per result to {@code results.jsonl}, flushed line by line so a killed run leaves a readable
 * file.
 *
 * <p>The file is truncated the first time a JVM opens it, then appended to: Surefire may start the engine several
 * times in one JVM, and every start belongs to the same run.
 */
public final class ResultsWriter implements AutoCloseable {

    /** Field names as in the results file: snake case. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .build();

    private static final Set<Path> STARTED = ConcurrentHashMap.newKeySet();

    private final Path file;
    private BufferedWriter writer;

    private ResultsWriter(Path file, BufferedWriter writer) {
        this.file = file;
        this.writer = writer;
    }

    /** Opens {@code results.jsonl} in the directory, creating it. */
    public static ResultsWriter open(Path directory) {
        Path file = directory.resolve("results.jsonl").toAbsolutePath().normalize();
        try {
            Files.createDirectories(directory);
            boolean first = STARTED.add(file);
            BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE,
                    first ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.APPEND);
            return new ResultsWriter(file, writer);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot open the results file " + file, e);
        }
    }

    /** The file written. */
    public Path file() {
        return file;
    }

    /** Appends one complete line. */
    public synchronized void write(ResultRecord record) {
        try {
            // One string per line, written whole: the encoder refuses half a surrogate pair (a reason cut inside an
            // emoji), and a refused write would leave half a line and break every later one.
            writer.write(wellFormed(MAPPER.writeValueAsString(record)) + "\n");
            writer.flush();
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialise result " + record.caseId() + "/" + record.scorer(), e);
        }
        catch (IOException e) {
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

    @Override
    public synchronized void close() {
        try {
            writer.close();
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot close " + file, e);
        }
    }
}
