package dev.agentarena.junit.engine.reporting.history;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.OutputFiles;

/**
 * The history file: JSON Lines, one {@link HistoryEntry} a line, oldest first. It is read whole (a damaged line is a
 * {@link DamagedHistory} naming the file and line, and the file is then never written), and changed only under an
 * exclusive lock on {@code <file>.lock} beside it, held by one writer at a time across threads and processes, by
 * writing the new content to a temporary file beside it and moving that over it: a reader sees the old history or the
 * new, and two builds that finish at once both get their entry in.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class HistoryFile {

    /** The suffix of the lock file beside the history. */
    static final String LOCK_SUFFIX = ".lock";

    private static final ObjectReader READER = Json.MAPPER.readerFor(HistoryEntry.class);
    private static final ObjectWriter WRITER = Json.MAPPER.writerFor(HistoryEntry.class);
    /** How long a writer waits for another one of the same JVM to let go of the lock before it gives up. */
    private static final long WAIT_NANOS = 300_000_000_000L;

    private final Path file;

    /** The history at that path (which need not exist yet). */
    public HistoryFile(Path file) {
        this.file = file.toAbsolutePath().normalize();
    }

    /** Where the history is. */
    public Path file() {
        return file;
    }

    /**
     * The history's entries, oldest first; none when the file does not exist.
     *
     * @throws DamagedHistory when a line is not an entry this engine reads, naming the file and line
     * @throws IOException when the file cannot be read
     */
    public List<HistoryEntry> read() throws IOException {
        List<HistoryEntry> entries = new ArrayList<>();
        BufferedReader reader;
        try {
            reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        }
        catch (NoSuchFileException e) {
            return entries;
        }
        try (reader) {
            int number = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                number++;
                if (!line.isBlank()) {
                    entries.add(entry(line, number));
                }
            }
        }
        catch (java.nio.charset.CharacterCodingException e) {
            throw new DamagedHistory(file + " is not UTF-8 text (" + e.getMessage() + ")" + DamagedHistory.RECOVER);
        }
        return entries;
    }

    private HistoryEntry entry(String line, int number) throws DamagedHistory {
        HistoryEntry entry;
        try {
            entry = READER.readValue(line);
        }
        catch (JsonProcessingException e) {
            throw new DamagedHistory(file + ":" + number + " is not a history entry (" + e.getOriginalMessage()
                    + ")" + DamagedHistory.RECOVER);
        }
        catch (IOException e) {
            throw new DamagedHistory(file + ":" + number + " is not a history entry (" + e.getMessage() + ")"
                    + DamagedHistory.RECOVER);
        }
        if (entry == null || entry.version() < 1 || entry.time() == null) {
            throw new DamagedHistory(file + ":" + number + " is not a history entry (no version or time)"
                    + DamagedHistory.RECOVER);
        }
        if (entry.version() > HistoryEntry.VERSION) {
            throw new DamagedHistory(file + ":" + number + " was written in version " + entry.version()
                    + " of the history format, and this engine reads version " + HistoryEntry.VERSION
                    + ": use the newer engine, or keep this history aside and start a new one");
        }
        return entry;
    }

    /**
     * Changes the history under its lock: reads it, hands its entries to {@code change} and writes what that returns in
     * their place, atomically. A damaged history is not written.
     *
     * @return the entries written
     * @throws DamagedHistory when the history holds a damaged line
     * @throws IOException when it cannot be read, locked or written
     */
    public List<HistoryEntry> update(UnaryOperator<List<HistoryEntry>> change) throws IOException {
        Files.createDirectories(file.getParent());
        Path lockFile = file.resolveSibling(file.getFileName() + LOCK_SUFFIX);
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = lock(channel)) {
            List<HistoryEntry> entries = change.apply(read());
            write(entries);
            return entries;
        }
    }

    /**
     * The lock of the file: another process's is waited for by the operating system; another thread of this JVM's
     * (which the operating system does not tell apart) by trying again.
     */
    private FileLock lock(FileChannel channel) throws IOException {
        long start = System.nanoTime();
        while (true) {
            try {
                return channel.lock();
            }
            catch (OverlappingFileLockException e) {
                if (System.nanoTime() - start > WAIT_NANOS) {
                    throw new IOException("Cannot lock " + file + LOCK_SUFFIX + ": another writer of this JVM held"
                            + " it for 5 minutes", e);
                }
                try {
                    Thread.sleep(5);
                }
                catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("Interrupted while waiting for the lock of " + file);
                }
            }
        }
    }

    private void write(List<HistoryEntry> entries) throws IOException {
        Path temporary = OutputFiles.temporaryBeside(file);
        try {
            try (OutputStream out = Files.newOutputStream(temporary);
                    BufferedWriter writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8),
                            1 << 16)) {
                for (HistoryEntry entry : entries) {
                    writer.write(WRITER.writeValueAsString(entry));
                    writer.write('\n');
                }
            }
            OutputFiles.replaceWith(temporary, file);
        }
        finally {
            Files.deleteIfExists(temporary);
        }
    }

    /**
     * A history file with a line this engine cannot read: its message names the file and line and how to recover.
     * The file is left as it was.
     */
    public static final class DamagedHistory extends IOException {

        private static final long serialVersionUID = 1L;

        /** Said by every reader, the engine's run as well as {@code HistoryDrift}: nothing here of a run's entry. */
        static final String RECOVER = ". The history is left as it was: fix or delete that line (every other line"
                + " is one run, on its own), or move the file aside to start a new history";

        DamagedHistory(String message) {
            super(message);
        }
    }
}
