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
            writer.write(MAPPER.writeValueAsString(record));
            writer.write('\n');
            writer.flush();
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialise result " + record.caseId() + "/" + record.scorer(), e);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot write to " + file, e);
        }
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
