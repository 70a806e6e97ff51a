package dev.agentarena.junit.engine.reporting.leaderboard;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * The results a leaderboard is built from, kept as compact binary records: in memory while they are few, in a
 * temporary file once they pass {@link #DEFAULT_MEMORY_LIMIT} bytes. So a run of a million cases retains a few
 * buffers, not its per-case data; {@link #replay} hands the records back, in order, when a leaderboard is built.
 *
 * <p>A record keeps what a leaderboard reads (eval, model, case, scorer, version, repeat, score, verdict, status,
 * metrics, the call's latency, tokens and cost, cached, weight) and whether it had an output and an error; datasets,
 * reasons, outputs and tags are left out. Repeated names (evals, models, scorers, versions, metrics) are written once
 * and referred to by number; a case id repeated by the next record (another scorer of the same case) is not written
 * again, and a case id is kept as its {@link CaseIdBytes}, which a replay hands on without making a string of them; a score of
 * exactly 0 or 1, and tokens when there are none, are told by a flag rather than written. About 20 bytes per record
 * of a 0/1 scorer.
 *
 * <p>Written on the thread that reports results, so a record is encoded in one method into the buffer through a local
 * position, a number below 128 (most) in one byte without a call, and rare work (a new name, metrics, a non-ASCII id)
 * in methods of its own.
 *
 * <p>Written and read a million times a run, so it does its own buffering: records go straight into one byte array
 * (no stream, no lock per byte), each name is compared with the previous result's before any hashing, and a replay
 * decodes into one reused {@link LoggedResult} rather than a record per result.
 */
final class ResultLog implements AutoCloseable {

    /** Past this many bytes the records move to a temporary file: 4 MB, some 160,000 records. */
    static final int DEFAULT_MEMORY_LIMIT = 4 << 20;

    /** The write and read buffer of a log in a file. */
    private static final int FILE_BUFFER = 1 << 16;
    /** The most bytes a record takes besides its case id and metrics: tags, varints and doubles. */
    private static final int RECORD_BYTES = 2 + 3 + 5 * 5 + 5 + 1 + 8 + 5 + 10 * 5 + 8 * 2;
    private static final int METRIC_BYTES = 5 + 8;

    private static final int DEFINE = 1;
    private static final int RECORD = 2;

    // the flags of a record; those of a usual recorded result (a score of 0 or 1, a verdict, an output) fit in 7 bits
    private static final int SCORE = 1;
    private static final int PASSED = 2;
    private static final int FAILED = 4;
    private static final int OUTPUT = 8;
    /** The score is exactly 0 (not written). */
    private static final int SCORE_ZERO = 16;
    /** The score is exactly 1 (not written). */
    private static final int SCORE_ONE = 32;
    private static final int LATENCY = 64;
    private static final int SAME_CASE = 128;
    private static final int CACHED = 256;
    private static final int ERROR = 512;
    private static final int COST = 1024;
    private static final int WEIGHT = 2048;
    private static final int TOKENS_CACHED = 4096;
    /** Tokens in or out are not 0 (both are written). */
    private static final int TOKENS = 8192;
    /** The calls waited for their turn (their queue time is written). */
    private static final int QUEUE = 16384;

    private static final long ZERO_BITS = Double.doubleToRawLongBits(0.0);
    private static final long ONE_BITS = Double.doubleToRawLongBits(1.0);

    /** The fields whose last name is remembered: a result mostly names what the one before it named. */
    private static final int EVAL = 0;
    private static final int MODEL = 1;
    private static final int SCORER = 2;
    private static final int VERSION = 3;
    private static final int REGISTRY = 4;
    private static final int METRIC = 5;

    private final int memoryLimit;
    private final Map<String, Integer> names = new HashMap<>();
    /** Per field, the last name seen and its number. */
    private final String[] lastNames = new String[METRIC + 1];
    private final int[] lastNumbers = new int[METRIC + 1];
    private int[] metricNumbers = new int[4];
    /** The records while in memory; then the file's write buffer. */
    private byte[] buffer = new byte[256];
    private int position;
    private Path file;
    /** The file's stream, {@code null} while the records are in memory. */
    private OutputStream sink;
    private String previousCase;
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
            int eval = name(record.eval(), EVAL);
            int model = name(record.model(), MODEL);
            int scorer = name(record.scorer(), SCORER);
            int version = name(record.scorerVersion(), VERSION);
            int registry = name(record.registryName(), REGISTRY);
            Map<String, Double> metrics = record.metrics();
            int metricCount = metrics.size();
            if (metricCount > 0) {
                nameMetrics(metrics);
            }
            String caseId = record.caseId();
            boolean sameCase = caseId == previousCase || caseId.equals(previousCase);
            previousCase = caseId;
            Double score = record.score();
            Boolean passed = record.passed();
            Long latency = record.latencyMs();
            long queue = record.queueMs() == null ? 0 : record.queueMs();
            long tokensIn = record.tokensIn();
            long tokensOut = record.tokensOut();
            double cost = record.costUsd();
            double weight = record.weight();
            long tokensCached = record.tokensCached();
            int flags = (score != null ? SCORE | scoreFlag(score) : 0)
                    | (Boolean.TRUE.equals(passed) ? PASSED : 0)
                    | (Boolean.FALSE.equals(passed) ? FAILED : 0)
                    | (record.cached() ? CACHED : 0)
                    | (record.output() != null ? OUTPUT : 0)
                    | (record.error() != null ? ERROR : 0)
                    | (latency != null ? LATENCY : 0)
                    | (sameCase ? SAME_CASE : 0)
                    | (tokensIn != 0 || tokensOut != 0 ? TOKENS : 0)
                    | (cost != 0 ? COST : 0)
                    | (Double.compare(weight, 1.0) != 0 ? WEIGHT : 0)
                    | (tokensCached != 0 ? TOKENS_CACHED : 0)
                    | (queue > 0 ? QUEUE : 0);
            reserve(RECORD_BYTES + metricCount * METRIC_BYTES + (sameCase ? 0 : textBytes(caseId)));
            byte[] b = buffer;
            int p = position;
            b[p++] = RECORD;
            p = putVarInt(b, p, flags);
            p = putVarInt(b, p, eval);
            p = putVarInt(b, p, model);
            if (!sameCase) {
                position = p;
                writeId(caseId);
                p = position;
            }
            p = putVarInt(b, p, scorer);
            p = putVarInt(b, p, version);
            p = putVarInt(b, p, registry);
            p = putVarInt(b, p, record.repeat());
            b[p++] = (byte) record.status().ordinal();
            if ((flags & (SCORE | SCORE_ZERO | SCORE_ONE)) == SCORE) {
                p = putDouble(b, p, score);
            }
            p = putVarInt(b, p, metricCount);
            if (metricCount > 0) {
                position = p;
                writeMetrics(metrics);
                p = position;
            }
            if (latency != null) {
                p = putVarLong(b, p, latency);
            }
            if (queue > 0) {
                p = putVarLong(b, p, queue);
            }
            if ((flags & TOKENS) != 0) {
                p = putVarLong(b, p, tokensIn);
                p = putVarLong(b, p, tokensOut);
            }
            if (tokensCached != 0) {
                p = putVarLong(b, p, tokensCached);
            }
            if (cost != 0) {
                p = putDouble(b, p, cost);
            }
            if ((flags & WEIGHT) != 0) {
                p = putDouble(b, p, weight);
            }
            position = p;
            records++;
            if (file == null && position > memoryLimit) {
                moveToFile();
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot keep a result for the leaderboard in " + file, e);
        }
    }

    /** {@link #SCORE_ZERO} or {@link #SCORE_ONE} for a score of exactly 0 or 1 (not −0), which is then not written. */
    private static int scoreFlag(double score) {
        long bits = Double.doubleToRawLongBits(score);
        return bits == ZERO_BITS ? SCORE_ZERO : bits == ONE_BITS ? SCORE_ONE : 0;
    }

    /** The numbers of the result's metric names, into {@link #metricNumbers}. */
    private void nameMetrics(Map<String, Double> metrics) throws IOException {
        if (metricNumbers.length < metrics.size()) {
            metricNumbers = new int[metrics.size()];
        }
        int m = 0;
        for (String metric : metrics.keySet()) {
            metricNumbers[m++] = name(metric, METRIC);
        }
    }

    /** The metrics' numbers (from {@link #nameMetrics}) and values, in the map's order. */
    private void writeMetrics(Map<String, Double> metrics) {
        int m = 0;
        for (Double value : metrics.values()) {
            writeVarInt(metricNumbers[m++]);
            writeDouble(value == null ? Double.NaN : value);
        }
    }

    /** The name's number, 0 for none; a new name is defined in the log first. */
    private int name(String name, int field) throws IOException {
        if (name == null) {
            return 0;
        }
        String last = lastNames[field];
        if (name == last || name.equals(last)) {
            // an equal name is often another instance (a registry name formed per result): compared, not hashed
            return lastNumbers[field];
        }
        return lookUp(name, field);
    }

    /** The number of a name other than the field's last: looked up, or defined in the log when new. */
    private int lookUp(String name, int field) throws IOException {
        Integer known = names.get(name);
        int number;
        if (known != null) {
            number = known;
        }
        else {
            number = names.size() + 1;
            names.put(name, number);
            reserve(1 + textBytes(name));
            buffer[position++] = DEFINE;
            writeText(name);
        }
        lastNames[field] = name;
        lastNumbers[field] = number;
        return number;
    }

    /** Room for {@code bytes} more bytes in the buffer: a larger array in memory, a flush to the file. */
    private void reserve(int bytes) throws IOException {
        if (position + bytes <= buffer.length) {
            return;
        }
        if (sink != null) {
            flushBuffer();
        }
        if (position + bytes > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, position + bytes));
        }
    }

    private void flushBuffer() throws IOException {
        sink.write(buffer, 0, position);
        position = 0;
    }

    private void moveToFile() throws IOException {
        file = Files.createTempFile("arena-leaderboard-", ".bin");
        file.toFile().deleteOnExit();
        sink = Files.newOutputStream(file);
        flushBuffer();
        buffer = new byte[FILE_BUFFER];
    }

    /** Hands every record back, in the order appended, in one {@link LoggedResult} reused for each. */
    void replay(Consumer<LoggedResult> consumer) {
        try {
            if (sink == null) {
                read(new Input(buffer, position, null), consumer);
                return;
            }
            flushBuffer();
            sink.flush();
            try (InputStream in = Files.newInputStream(file)) {
                read(new Input(new byte[FILE_BUFFER], 0, in), consumer);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot read back the results kept for the leaderboard in " + file, e);
        }
    }

    private static void read(Input in, Consumer<LoggedResult> consumer) throws IOException {
        ResultStatus[] statuses = ResultStatus.values();
        LoggedResult result = new LoggedResult();
        int nameCount = 1;
        for (int tag = in.next(); tag != -1; tag = in.next()) {
            if (tag == DEFINE) {
                if (nameCount == result.names.length) {
                    result.names = Arrays.copyOf(result.names, nameCount * 2);
                }
                result.names[nameCount++] = in.text();
                continue;
            }
            if (tag != RECORD) {
                throw new IOException("unexpected tag " + tag);
            }
            int flags = in.varInt();
            result.eval = in.varInt();
            result.model = in.varInt();
            result.sameCase = (flags & SAME_CASE) != 0;
            if (!result.sameCase) {
                in.id(result);
            }
            result.scorer = in.varInt();
            result.version = in.varInt();
            result.registry = in.varInt();
            result.repeat = in.varInt();
            result.status = statuses[in.u8()];
            result.hasScore = (flags & SCORE) != 0;
            result.score = !result.hasScore ? Double.NaN
                    : (flags & SCORE_ZERO) != 0 ? 0.0
                    : (flags & SCORE_ONE) != 0 ? 1.0
                    : in.float64();
            int metricCount = in.varInt();
            if (result.metricNames.length < metricCount) {
                result.metricNames = new int[metricCount];
                result.metricValues = new double[metricCount];
            }
            for (int m = 0; m < metricCount; m++) {
                result.metricNames[m] = in.varInt();
                result.metricValues[m] = in.float64();
            }
            result.metricCount = metricCount;
            result.latency = (flags & LATENCY) != 0 ? in.varLong() : -1;
            result.queue = (flags & QUEUE) != 0 ? in.varLong() : 0;
            boolean tokens = (flags & TOKENS) != 0;
            result.tokensIn = tokens ? in.varLong() : 0;
            result.tokensOut = tokens ? in.varLong() : 0;
            result.tokensCached = (flags & TOKENS_CACHED) != 0 ? in.varLong() : 0;
            result.cost = (flags & COST) != 0 ? in.float64() : 0;
            result.weight = (flags & WEIGHT) != 0 ? in.float64() : 1.0;
            result.cached = (flags & CACHED) != 0;
            result.hasOutput = (flags & OUTPUT) != 0;
            consumer.accept(result);
        }
    }

    /** The bytes {@link #writeText} takes at most. */
    private static int textBytes(String text) {
        return 5 + 3 * text.length();
    }

    /**
     * The text's UTF-8 bytes after their count. An ASCII text (every case id we know) is copied char by char as it is
     * checked, in one pass; at the first other char the copy is dropped and {@link #writeUtf8} writes the text.
     */
    private void writeText(String text) {
        int start = position;
        int length = text.length();
        writeVarInt(length);
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                position = start;
                writeUtf8(text);
                return;
            }
            buffer[position++] = (byte) c;
        }
    }

    /**
     * A case id's bytes ({@link CaseIdBytes}) after their count, which a replay hands to the {@link CaseIndex} as they
     * are. An ASCII id is its chars, copied as they are checked; at the first other char the copy is dropped and
     * {@link #writeWideId} writes the id.
     */
    private void writeId(String id) {
        int start = position;
        int length = id.length();
        writeVarInt(length);
        for (int i = 0; i < length; i++) {
            char c = id.charAt(i);
            if (c >= 0x80) {
                position = start;
                writeWideId(id);
                return;
            }
            buffer[position++] = (byte) c;
        }
    }

    /** An id with a char past ASCII, in a method of its own so that the common path stays small. */
    private void writeWideId(String id) {
        writeVarInt(CaseIdBytes.length(id));
        position = CaseIdBytes.encode(id, buffer, position);
    }

    /** A text with a char past ASCII: encoded by the JDK, a method of its own so the common path stays small. */
    private void writeUtf8(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        writeVarInt(bytes.length);
        System.arraycopy(bytes, 0, buffer, position, bytes.length);
        position += bytes.length;
    }

    private void writeDouble(double value) {
        position = putDouble(buffer, position, value);
    }

    private void writeVarInt(int value) {
        position = putVarInt(buffer, position, value);
    }

    /** Writes {@code value}'s 8 bytes at {@code p}; returns where they end. */
    private static int putDouble(byte[] b, int p, double value) {
        long bits = Double.doubleToLongBits(value);
        for (int shift = 56; shift >= 0; shift -= 8) {
            b[p++] = (byte) (bits >>> shift);
        }
        return p;
    }

    /** Writes {@code value} (unsigned) as a varint at {@code p}; returns where it ends. One byte below 128, inline. */
    private static int putVarInt(byte[] b, int p, int value) {
        if ((value & ~0x7F) == 0) {
            b[p] = (byte) value;
            return p + 1;
        }
        return putVarLong(b, p, value & 0xFFFFFFFFL);
    }

    /** Writes {@code value} as a varint at {@code p}, 7 bits a byte, low first; returns where it ends. */
    private static int putVarLong(byte[] b, int p, long value) {
        long rest = value;
        while ((rest & ~0x7FL) != 0) {
            b[p++] = (byte) ((rest & 0x7F) | 0x80);
            rest >>>= 7;
        }
        b[p++] = (byte) rest;
        return p;
    }

    /** Deletes the temporary file, if any; the log is empty afterwards. */
    @Override
    public void close() {
        try {
            if (sink != null) {
                sink.close();
            }
            if (file != null) {
                Files.deleteIfExists(file);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + file, e);
        }
        finally {
            names.clear();
            Arrays.fill(lastNames, null);
            buffer = new byte[256];
            position = 0;
            sink = null;
            file = null;
            previousCase = null;
            records = 0;
        }
    }

    /** The log's bytes as they are read back: from the in-memory array, or through a buffer from the file. */
    private static final class Input {

        private byte[] data;
        private int position;
        private int limit;
        /** The file, {@code null} when {@link #data} holds every byte. */
        private final InputStream in;

        Input(byte[] data, int limit, InputStream in) {
            this.data = data;
            this.limit = limit;
            this.in = in;
        }

        /** The next byte, or −1 at the end. */
        int next() throws IOException {
            if (position == limit && !fill(1)) {
                return -1;
            }
            return data[position++] & 0xFF;
        }

        int u8() throws IOException {
            int b = next();
            if (b == -1) {
                throw new EOFException("a result kept for the leaderboard ends early");
            }
            return b;
        }

        int varInt() throws IOException {
            return (int) varLong();
        }

        long varLong() throws IOException {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = u8();
                value |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return value;
                }
            }
            throw new IOException("a number kept for the leaderboard is too long");
        }

        double float64() throws IOException {
            if (limit - position < 8 && !fill(8)) {
                throw new EOFException("a result kept for the leaderboard ends early");
            }
            long bits = 0;
            for (int i = 0; i < 8; i++) {
                bits = bits << 8 | (data[position++] & 0xFF);
            }
            return Double.longBitsToDouble(bits);
        }

        String text() throws IOException {
            int length = varInt();
            if (limit - position < length && !fill(length)) {
                throw new EOFException("a text kept for the leaderboard ends early");
            }
            String text = new String(data, position, length, StandardCharsets.UTF_8);
            position += length;
            return text;
        }

        /** A case id's bytes, copied into the result (whose array outlives this buffer's next fill). */
        void id(LoggedResult result) throws IOException {
            int length = varInt();
            if (limit - position < length && !fill(length)) {
                throw new EOFException("a case id kept for the leaderboard ends early");
            }
            if (result.caseId.length < length) {
                result.caseId = new byte[Math.max(length, result.caseId.length * 2)];
            }
            System.arraycopy(data, position, result.caseId, 0, length);
            result.caseIdLength = length;
            position += length;
        }

        /** Reads on from the file until {@code bytes} bytes are at hand; false when the file ends first. */
        private boolean fill(int bytes) throws IOException {
            if (in == null) {
                return false;
            }
            int remaining = limit - position;
            if (bytes > data.length) {
                data = Arrays.copyOf(data, Math.max(bytes, data.length * 2));
            }
            System.arraycopy(data, position, data, 0, remaining);
            position = 0;
            limit = remaining;
            while (limit < bytes) {
                int read = in.read(data, limit, data.length - limit);
                if (read == -1) {
                    return false;
                }
                limit += read;
            }
            return true;
        }
    }
}
