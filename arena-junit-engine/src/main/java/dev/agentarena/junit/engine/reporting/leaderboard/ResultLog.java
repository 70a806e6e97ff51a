package dev.agentarena.junit.engine.reporting.leaderboard;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * The results a leaderboard is built from, kept as compact binary records: in memory while they are few, in a
 * temporary file once they pass {@link #DEFAULT_MEMORY_LIMIT} bytes. So a run of a million cases retains a few
 * buffers, not its per-case data; {@link #replay} hands the records back, in order, when a leaderboard is built.
 *
 * <p>A record keeps what a leaderboard reads (eval, model, dataset, case, scorer, version, repeat, score, verdict,
 * status, metrics, the call's latency, tokens and cost, cached, weight) and whether it had an output and an error;
 * reasons, outputs and tags are left out. Repeated names (evals, models, scorers, versions, metrics) are written once
 * and referred to by number; a case id repeated by the next record (another scorer of the same case) is not written
 * again. About 30 bytes per record.
 */
final class ResultLog implements AutoCloseable {

    /** Past this many bytes the records move to a temporary file: 4 MB, some 130,000 records. */
    static final int DEFAULT_MEMORY_LIMIT = 4 << 20;

    private static final int DEFINE = 1;
    private static final int RECORD = 2;

    private static final int SCORE = 1;
    private static final int PASSED = 2;
    private static final int FAILED = 4;
    private static final int CACHED = 8;
    private static final int OUTPUT = 16;
    private static final int ERROR = 32;
    private static final int LATENCY = 64;
    private static final int SAME_CASE = 128;
    private static final int COST = 256;
    private static final int WEIGHT = 512;
    private static final int TOKENS_CACHED = 1024;

    private final int memoryLimit;
    private final Map<String, Integer> names = new HashMap<>();
    private ByteArrayOutputStream memory = new ByteArrayOutputStream(256);
    private Path file;
    private OutputStream sink = memory;
    private DataOutputStream out = new DataOutputStream(memory);
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
            int eval = name(record.eval());
            int model = name(record.model());
            int dataset = name(record.dataset());
            int scorer = name(record.scorer());
            int version = name(record.scorerVersion());
            int registry = name(record.registryName());
            List<Integer> metricNames = new ArrayList<>(record.metrics().size());
            for (String metric : record.metrics().keySet()) {
                metricNames.add(name(metric));
            }
            boolean sameCase = record.caseId().equals(previousCase);
            previousCase = record.caseId();
            int flags = (record.score() != null ? SCORE : 0)
                    | (Boolean.TRUE.equals(record.passed()) ? PASSED : 0)
                    | (Boolean.FALSE.equals(record.passed()) ? FAILED : 0)
                    | (record.cached() ? CACHED : 0)
                    | (record.output() != null ? OUTPUT : 0)
                    | (record.error() != null ? ERROR : 0)
                    | (record.latencyMs() != null ? LATENCY : 0)
                    | (sameCase ? SAME_CASE : 0)
                    | (record.costUsd() != 0 ? COST : 0)
                    | (Double.compare(record.weight(), 1.0) != 0 ? WEIGHT : 0)
                    | (record.tokensCached() != 0 ? TOKENS_CACHED : 0);
            out.writeByte(RECORD);
            writeVarInt(flags);
            writeVarInt(eval);
            writeVarInt(model);
            writeVarInt(dataset);
            if (!sameCase) {
                writeText(record.caseId());
            }
            writeVarInt(scorer);
            writeVarInt(version);
            writeVarInt(registry);
            writeVarInt(record.repeat());
            out.writeByte(record.status().ordinal());
            if (record.score() != null) {
                out.writeDouble(record.score());
            }
            writeVarInt(metricNames.size());
            int m = 0;
            for (Double value : record.metrics().values()) {
                writeVarInt(metricNames.get(m++));
                out.writeDouble(value == null ? Double.NaN : value);
            }
            if (record.latencyMs() != null) {
                writeVarLong(record.latencyMs());
            }
            writeVarLong(record.tokensIn());
            writeVarLong(record.tokensOut());
            if (record.tokensCached() != 0) {
                writeVarLong(record.tokensCached());
            }
            if (record.costUsd() != 0) {
                out.writeDouble(record.costUsd());
            }
            if (Double.compare(record.weight(), 1.0) != 0) {
                out.writeDouble(record.weight());
            }
            records++;
            if (file == null && memory.size() > memoryLimit) {
                moveToFile();
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot keep a result for the leaderboard in " + file, e);
        }
    }

    /** The name's number, 0 for none; a new name is defined in the log first. */
    private int name(String name) throws IOException {
        if (name == null) {
            return 0;
        }
        Integer known = names.get(name);
        if (known != null) {
            return known;
        }
        int number = names.size() + 1;
        names.put(name, number);
        out.writeByte(DEFINE);
        writeText(name);
        return number;
    }

    private void moveToFile() throws IOException {
        file = Files.createTempFile("arena-leaderboard-", ".bin");
        file.toFile().deleteOnExit();
        OutputStream stream = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        memory.writeTo(stream);
        memory = null;
        sink = stream;
        out = new DataOutputStream(stream);
    }

    /** Hands every record back, in the order appended. */
    void replay(Consumer<ResultRecord> consumer) {
        try {
            out.flush();
            try (InputStream in = file == null ? new ByteArrayInputStream(memory.toByteArray())
                    : new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                read(new DataInputStream(in), consumer);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot read back the results kept for the leaderboard in " + file, e);
        }
    }

    private static void read(DataInputStream in, Consumer<ResultRecord> consumer) throws IOException {
        ResultStatus[] statuses = ResultStatus.values();
        List<String> names = new ArrayList<>();
        names.add(null);
        String caseId = null;
        for (int tag = in.read(); tag != -1; tag = in.read()) {
            if (tag == DEFINE) {
                names.add(readText(in));
                continue;
            }
            if (tag != RECORD) {
                throw new IOException("unexpected tag " + tag);
            }
            int flags = readVarInt(in);
            String eval = names.get(readVarInt(in));
            String model = names.get(readVarInt(in));
            String dataset = names.get(readVarInt(in));
            if ((flags & SAME_CASE) == 0) {
                caseId = readText(in);
            }
            String scorer = names.get(readVarInt(in));
            String version = names.get(readVarInt(in));
            String registry = names.get(readVarInt(in));
            int repeat = readVarInt(in);
            ResultStatus status = statuses[in.readByte()];
            Double score = (flags & SCORE) != 0 ? in.readDouble() : null;
            int metricCount = readVarInt(in);
            Map<String, Double> metrics = metricCount == 0 ? Map.of() : new LinkedHashMap<>();
            for (int m = 0; m < metricCount; m++) {
                metrics.put(names.get(readVarInt(in)), in.readDouble());
            }
            Long latency = (flags & LATENCY) != 0 ? readVarLong(in) : null;
            long tokensIn = readVarLong(in);
            long tokensOut = readVarLong(in);
            long tokensCached = (flags & TOKENS_CACHED) != 0 ? readVarLong(in) : 0;
            double cost = (flags & COST) != 0 ? in.readDouble() : 0;
            double weight = (flags & WEIGHT) != 0 ? in.readDouble() : 1.0;
            Boolean passed = (flags & PASSED) != 0 ? Boolean.TRUE : (flags & FAILED) != 0 ? Boolean.FALSE : null;
            consumer.accept(new ResultRecord(eval, model, dataset, caseId, scorer, version, registry, repeat, score,
                    passed, status, "", metrics, latency, tokensIn, tokensOut, tokensCached, cost,
                    (flags & CACHED) != 0, weight,
                    List.of(), (flags & ERROR) != 0 ? "" : null, (flags & OUTPUT) != 0 ? "" : null));
        }
    }

    private void writeText(String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        writeVarInt(bytes.length);
        out.write(bytes);
    }

    private static String readText(DataInputStream in) throws IOException {
        byte[] bytes = new byte[readVarInt(in)];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private void writeVarInt(int value) throws IOException {
        writeVarLong(value & 0xFFFFFFFFL);
    }

    private void writeVarLong(long value) throws IOException {
        long rest = value;
        while ((rest & ~0x7FL) != 0) {
            out.writeByte((int) ((rest & 0x7F) | 0x80));
            rest >>>= 7;
        }
        out.writeByte((int) rest);
    }

    private static int readVarInt(DataInputStream in) throws IOException {
        return (int) readVarLong(in);
    }

    private static long readVarLong(DataInputStream in) throws IOException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.read();
            if (b == -1) {
                throw new EOFException("a result kept for the leaderboard ends early");
            }
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IOException("a number kept for the leaderboard is too long");
    }

    /** Deletes the temporary file, if any; the log is empty afterwards. */
    @Override
    public void close() {
        try {
            sink.close();
            if (file != null) {
                Files.deleteIfExists(file);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + file, e);
        }
        finally {
            names.clear();
            memory = new ByteArrayOutputStream(256);
            sink = memory;
            out = new DataOutputStream(memory);
            file = null;
            previousCase = null;
            records = 0;
        }
    }
}
