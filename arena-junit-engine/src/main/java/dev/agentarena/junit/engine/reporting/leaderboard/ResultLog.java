package dev.agentarena.junit.engine.reporting.leaderboard;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * The results a leaderboard is built from, as binary records in a {@link ByteBuffer}: in memory up to a limit, then
 * in a temporary file, so a run of a million cases keeps one buffer on the heap, not its results. The only class that
 * writes or reads the records; {@link #replay} hands them back in the order appended, in one reused {@link Entry}.
 *
 * <p>A record keeps what a leaderboard reads of a result (no dataset, reason, output or tags). Each entry is a tag, its
 * length and its body; an eval, model, scorer, version and registry name seen together, and a metric name, are
 * defined once and then named by number, and a case id is written only when it differs from the previous record's.
 */
final class ResultLog implements AutoCloseable {

    /** Past this many bytes the records move to a temporary file. */
    static final int DEFAULT_MEMORY_LIMIT = 4 << 20;

    private static final int FILE_BUFFER = 1 << 16;

    private static final byte KEY = 1;
    private static final byte METRIC = 2;
    private static final byte RECORD = 3;

    // what a record holds besides its key, repeat and status
    private static final int NEW_CASE = 1;
    private static final int SCORE = 2;
    private static final int OUTPUT = 4;
    private static final int CACHED = 8;
    private static final int LATENCY = 16;
    private static final int QUEUE = 32;
    private static final int TOKENS = 64;
    private static final int TOKENS_CACHED = 128;
    private static final int COST = 256;
    private static final int WEIGHT = 512;
    private static final int METRICS = 1024;

    /** How many keys {@link #recentKeys} holds. */
    private static final int RECENT_KEYS = 8;

    /** The most bytes a record takes besides its case id and metrics. */
    private static final int RECORD_BYTES = 1 + 4 + 2 + 4 + 4 + 1 + 8 * 8 + 4;

    private final int memoryLimit;
    private final Map<Key, Integer> keys = new HashMap<>();
    private final Map<String, Integer> metrics = new HashMap<>();
    /**
     * The last keys found in {@link #keys} and their numbers, replaced in turn: a result mostly names what one of the
     * few before it named (the case's other scorers), so it is compared with these before it is hashed.
     */
    private final Key[] recentKeys = new Key[RECENT_KEYS];
    private final int[] recentNumbers = new int[RECENT_KEYS];
    private int nextRecent;
    private String previousCase;
    /** The records while in memory; then the file's write buffer. */
    private ByteBuffer buffer = ByteBuffer.allocate(256);
    /** Where the entry being written starts in {@link #buffer}. */
    private int entryStart;
    private Path file;
    /** The file's channel, {@code null} while the records are in memory. */
    private FileChannel channel;
    private long records;

    ResultLog() {
        this(DEFAULT_MEMORY_LIMIT);
    }

    /** A log that moves to a file past {@code memoryLimit} bytes (tests use a small limit). */
    ResultLog(int memoryLimit) {
        this.memoryLimit = memoryLimit;
    }

    /** How many records were appended. */
    long size() {
        return records;
    }

    /** Whether the records are in a temporary file (for tests). */
    boolean spilled() {
        return file != null;
    }

    /** The temporary file, or {@code null} while the records are in memory (for tests). */
    Path file() {
        return file;
    }

    void append(ResultRecord record) {
        try {
            int key = key(record);
            Map<String, Double> recordMetrics = record.metrics();
            int[] metricNumbers = recordMetrics.isEmpty() ? null : metricNumbers(recordMetrics);
            String caseId = record.caseId();
            boolean newCase = !caseId.equals(previousCase);
            previousCase = caseId;
            Long latency = record.latencyMs();
            long queue = record.queueMs() == null ? 0 : record.queueMs();
            int flags = (newCase ? NEW_CASE : 0)
                    | (record.score() != null ? SCORE : 0)
                    | (record.output() != null ? OUTPUT : 0)
                    | (record.cached() ? CACHED : 0)
                    | (latency != null ? LATENCY : 0)
                    | (queue > 0 ? QUEUE : 0)
                    | (record.tokensIn() != 0 || record.tokensOut() != 0 ? TOKENS : 0)
                    | (record.tokensCached() != 0 ? TOKENS_CACHED : 0)
                    | (record.costUsd() != 0 ? COST : 0)
                    | (Double.compare(record.weight(), 1.0) != 0 ? WEIGHT : 0)
                    | (metricNumbers != null ? METRICS : 0);
            ByteBuffer b = start(RECORD, RECORD_BYTES + (metricNumbers == null ? 0 : 12 * metricNumbers.length)
                    + (newCase ? textBytes(caseId) : 0));
            b.putShort((short) flags).putInt(key).putInt(record.repeat()).put((byte) record.status().ordinal());
            if (newCase) {
                putText(b, caseId);
            }
            if (record.score() != null) {
                b.putDouble(record.score());
            }
            if (latency != null) {
                b.putLong(latency);
            }
            if (queue > 0) {
                b.putLong(queue);
            }
            if ((flags & TOKENS) != 0) {
                b.putLong(record.tokensIn()).putLong(record.tokensOut());
            }
            if ((flags & TOKENS_CACHED) != 0) {
                b.putLong(record.tokensCached());
            }
            if ((flags & COST) != 0) {
                b.putDouble(record.costUsd());
            }
            if ((flags & WEIGHT) != 0) {
                b.putDouble(record.weight());
            }
            if (metricNumbers != null) {
                b.putInt(metricNumbers.length);
                int m = 0;
                for (Double value : recordMetrics.values()) {
                    b.putInt(metricNumbers[m++]).putDouble(value == null ? Double.NaN : value);
                }
            }
            end();
            records++;
            if (file == null && buffer.position() > memoryLimit) {
                moveToFile();
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot keep a result for the leaderboard in " + file, e);
        }
    }

    /** The number of the record's eval, model, scorer, version and registry name, defined in the log when new. */
    private int key(ResultRecord record) throws IOException {
        for (int i = 0; i < RECENT_KEYS && recentKeys[i] != null; i++) {
            if (recentKeys[i].names(record)) {
                return recentNumbers[i];
            }
        }
        Key key = new Key(record.eval(), record.model(), record.scorer(), record.scorerVersion(),
                record.registryName());
        Integer number = keys.get(key);
        if (number == null) {
            number = keys.size();
            keys.put(key, number);
            String[] names = {key.eval, key.model, key.scorer, key.version, key.registry};
            int bytes = 0;
            for (String name : names) {
                bytes += 1 + (name == null ? 0 : textBytes(name));
            }
            ByteBuffer b = start(KEY, bytes);
            for (String name : names) {
                b.put((byte) (name == null ? 0 : 1));
                if (name != null) {
                    putText(b, name);
                }
            }
            end();
        }
        recentKeys[nextRecent] = key;
        recentNumbers[nextRecent] = number;
        nextRecent = (nextRecent + 1) % RECENT_KEYS;
        return number;
    }

    /** The numbers of the metrics' names, in the map's order; a new name is defined in the log first. */
    private int[] metricNumbers(Map<String, Double> recordMetrics) throws IOException {
        int[] numbers = new int[recordMetrics.size()];
        int m = 0;
        for (String name : recordMetrics.keySet()) {
            Integer number = metrics.get(name);
            if (number == null) {
                number = metrics.size();
                metrics.put(name, number);
                putText(start(METRIC, textBytes(name)), name);
                end();
            }
            numbers[m++] = number;
        }
        return numbers;
    }

    /** Room for an entry of at most {@code bytes} bytes after its tag and length, whose length {@link #end} sets. */
    private ByteBuffer start(byte tag, int bytes) throws IOException {
        int needed = 1 + 4 + bytes;
        if (buffer.remaining() < needed && channel != null) {
            drain();
        }
        if (buffer.remaining() < needed) {
            buffer = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.position() + needed))
                    .put(buffer.flip());
        }
        entryStart = buffer.position();
        return buffer.put(tag).putInt(0);
    }

    /** Sets the length of the entry {@link #start} began. */
    private void end() {
        buffer.putInt(entryStart + 1, buffer.position() - entryStart - 5);
    }

    /** Writes the buffer's bytes to the end of the file. */
    private void drain() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }

    private void moveToFile() throws IOException {
        file = Files.createTempFile("arena-leaderboard-", ".bin");
        file.toFile().deleteOnExit();
        channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ);
        drain();
        buffer = ByteBuffer.allocate(FILE_BUFFER);
    }

    /** The bytes {@link #putText} writes: a text's length, then each char as two bytes, lone surrogates included. */
    private static int textBytes(String text) {
        return 4 + 2 * text.length();
    }

    private static void putText(ByteBuffer b, String text) {
        int length = text.length();
        b.putInt(length);
        for (int i = 0; i < length; i++) {
            b.putChar(text.charAt(i));
        }
    }

    /** Hands every record back, in the order appended, in one {@link Entry} reused for each. */
    void replay(Consumer<Entry> consumer) {
        try {
            if (channel == null) {
                read(buffer.duplicate().flip(), null, consumer);
                return;
            }
            drain();
            read(ByteBuffer.allocate(FILE_BUFFER).flip(), channel, consumer);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot read back the results kept for the leaderboard in " + file, e);
        }
    }

    private static void read(ByteBuffer in, FileChannel from, Consumer<Entry> consumer) throws IOException {
        Reader reader = new Reader(in, from);
        List<String[]> keys = new ArrayList<>();
        List<String> metricNames = new ArrayList<>();
        ResultStatus[] statuses = ResultStatus.values();
        Entry entry = new Entry();
        for (ByteBuffer b = reader.next(); b != null; b = reader.next()) {
            byte tag = b.get();
            b.getInt();
            if (tag == KEY) {
                String[] names = new String[5];
                for (int n = 0; n < names.length; n++) {
                    names[n] = b.get() == 0 ? null : getText(b);
                }
                keys.add(names);
                continue;
            }
            if (tag == METRIC) {
                metricNames.add(getText(b));
                continue;
            }
            if (tag != RECORD) {
                throw new IOException("unexpected tag " + tag);
            }
            int flags = b.getShort();
            entry.key = b.getInt();
            String[] names = keys.get(entry.key);
            entry.eval = names[0];
            entry.model = names[1];
            entry.scorer = names[2];
            entry.version = names[3];
            entry.registry = names[4];
            entry.repeat = b.getInt();
            entry.status = statuses[b.get()];
            if ((flags & NEW_CASE) != 0) {
                entry.caseId = getText(b);
            }
            entry.hasScore = (flags & SCORE) != 0;
            entry.score = entry.hasScore ? b.getDouble() : Double.NaN;
            entry.latency = (flags & LATENCY) != 0 ? b.getLong() : -1;
            entry.queue = (flags & QUEUE) != 0 ? b.getLong() : 0;
            boolean tokens = (flags & TOKENS) != 0;
            entry.tokensIn = tokens ? b.getLong() : 0;
            entry.tokensOut = tokens ? b.getLong() : 0;
            entry.tokensCached = (flags & TOKENS_CACHED) != 0 ? b.getLong() : 0;
            entry.cost = (flags & COST) != 0 ? b.getDouble() : 0;
            entry.weight = (flags & WEIGHT) != 0 ? b.getDouble() : 1.0;
            entry.cached = (flags & CACHED) != 0;
            entry.hasOutput = (flags & OUTPUT) != 0;
            entry.metricCount = (flags & METRICS) != 0 ? b.getInt() : 0;
            if (entry.metricNames.length < entry.metricCount) {
                entry.metricNames = new String[entry.metricCount];
                entry.metricValues = new double[entry.metricCount];
            }
            for (int m = 0; m < entry.metricCount; m++) {
                entry.metricNames[m] = metricNames.get(b.getInt());
                entry.metricValues[m] = b.getDouble();
            }
            consumer.accept(entry);
        }
    }

    private static String getText(ByteBuffer b) {
        char[] chars = new char[b.getInt()];
        b.asCharBuffer().get(chars);
        b.position(b.position() + 2 * chars.length);
        return new String(chars);
    }

    /** Deletes the temporary file, if any; the log is empty afterwards. */
    @Override
    public void close() {
        try {
            if (channel != null) {
                channel.close();
            }
            if (file != null) {
                Files.deleteIfExists(file);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + file, e);
        }
        finally {
            keys.clear();
            metrics.clear();
            Arrays.fill(recentKeys, null);
            nextRecent = 0;
            previousCase = null;
            buffer = ByteBuffer.allocate(256);
            channel = null;
            file = null;
            records = 0;
        }
    }

    /** The names a record's key number stands for; scorer, version and registry may be {@code null}. */
    private record Key(String eval, String model, String scorer, String version, String registry) {

        /** Whether the record names this key. */
        boolean names(ResultRecord record) {
            return eval.equals(record.eval()) && model.equals(record.model()) && Objects.equals(scorer, record.scorer())
                    && Objects.equals(version, record.scorerVersion())
                    && Objects.equals(registry, record.registryName());
        }
    }

    /** The entries of the log, each whole in the buffer: from memory, or read on from the file. */
    private static final class Reader {

        private ByteBuffer in;
        private final FileChannel from;
        private long filePosition;

        Reader(ByteBuffer in, FileChannel from) {
            this.in = in;
            this.from = from;
        }

        /** The buffer at the next entry's tag, the whole entry in it; {@code null} after the last. */
        ByteBuffer next() throws IOException {
            if (!fill(5)) {
                return null;
            }
            int length = in.getInt(in.position() + 1);
            if (!fill(5 + length)) {
                throw new EOFException("a result kept for the leaderboard ends early");
            }
            return in;
        }

        /** Reads on from the file until {@code bytes} bytes are at hand; false when the log ends first. */
        private boolean fill(int bytes) throws IOException {
            if (in.remaining() >= bytes) {
                return true;
            }
            if (from == null) {
                return false;
            }
            if (in.capacity() < bytes) {
                in = ByteBuffer.allocate(Math.max(bytes, in.capacity() * 2)).put(in);
            }
            else {
                in.compact();
            }
            while (in.position() < bytes) {
                int read = from.read(in, filePosition);
                if (read == -1) {
                    break;
                }
                filePosition += read;
            }
            in.flip();
            return in.remaining() >= bytes;
        }
    }

    /**
     * One record as it is read back. One instance is reused for every record of a replay, so a consumer copies what it
     * keeps; {@link #caseId} stays the same instance while records name the same case.
     */
    static final class Entry {

        /** The number of the eval, model, scorer, version and registry name together. */
        int key;
        String eval;
        String model;
        /** {@code null} for a result without a scorer. */
        String scorer;
        String version;
        String registry;
        String caseId;
        int repeat;
        ResultStatus status;
        /** {@code NaN} when the result has no score. */
        double score;
        boolean hasScore;
        boolean cached;
        boolean hasOutput;
        /** −1 when the result reported none. */
        long latency;
        /** The time the calls waited for their turn, apart from {@link #latency}; 0 when they did not wait. */
        long queue;
        long tokensIn;
        long tokensOut;
        long tokensCached;
        double cost;
        double weight;
        int metricCount;
        String[] metricNames = new String[4];
        /** {@code NaN} for a metric reported as {@code null}. */
        double[] metricValues = new double[4];

        /** Whether the result counts towards accuracy: it has a score and its status counts. */
        boolean counts() {
            return hasScore && status.counts();
        }

        /** An error result without an output: the case's call failed before any scorer ran. */
        boolean callFailed() {
            return status == ResultStatus.ERROR && !hasOutput;
        }
    }
}
