package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * Reads a {@code results.jsonl} one line at a time, each with the byte offset it starts at, so that a pass over a
 * file of any size holds one line, and a line can be read again later by its offset ({@link #lineAt}).
 */
final class ResultLines implements AutoCloseable {

    private static final ObjectMapper MAPPER = Json.MAPPER;

    private final Path file;
    private final InputStream in;
    private final byte[] buffer = new byte[1 << 16];
    private int position;
    private int limit;
    private byte[] line = new byte[4096];
    private long offset;
    private long number;

    ResultLines(Path file) throws IOException {
        this.file = file;
        this.in = Files.newInputStream(file);
    }

    /**
     * One result line.
     *
     * @param offset where the line starts in the file
     * @param number its line number, from 1
     * @param node the parsed line
     */
    record Line(long offset, long number, JsonNode node) {

        String text(String field) {
            JsonNode value = node.get(field);
            return value == null || value.isNull() ? null : value.asText();
        }

        Double number(String field) {
            JsonNode value = node.get(field);
            return value == null || !value.isNumber() ? null : value.asDouble();
        }

        ResultStatus status() {
            String status = text("status");
            try {
                return status == null ? null : ResultStatus.fromJsonName(status);
            }
            catch (IllegalArgumentException e) {
                return null;
            }
        }
    }

    /**
     * The next non-blank line, or {@code null} at the end of the file.
     *
     * @throws IOException when a line is not a JSON object (naming the file and the line)
     */
    Line next() throws IOException {
        while (true) {
            long start = offset;
            int length = 0;
            boolean ended = false;
            while (!ended) {
                if (position == limit) {
                    limit = in.read(buffer);
                    position = 0;
                    if (limit <= 0) {
                        limit = 0;
                        break;
                    }
                }
                int from = position;
                while (position < limit && buffer[position] != '\n') {
                    position++;
                }
                int count = position - from;
                if (length + count > line.length) {
                    line = Arrays.copyOf(line, Math.max(line.length * 2, length + count));
                }
                System.arraycopy(buffer, from, line, length, count);
                length += count;
                offset += count;
                if (position < limit) {
                    position++;
                    offset++;
                    ended = true;
                }
            }
            if (!ended && length == 0) {
                return null;
            }
            number++;
            String text = new String(line, 0, length, StandardCharsets.UTF_8);
            if (text.isBlank()) {
                continue;
            }
            return new Line(start, number, parse(file + ", line " + number, text));
        }
    }

    private static JsonNode parse(String where, String text) throws IOException {
        JsonNode node;
        try {
            node = MAPPER.readTree(text);
        }
        catch (JsonProcessingException e) {
            throw new IOException(where + ": not a result (not JSON: " + e.getOriginalMessage()
                    + ")", e);
        }
        if (node == null || !node.isObject() || !node.hasNonNull("case_id") || !node.hasNonNull("model")) {
            throw new IOException(where + ": not a result (a results line is a JSON object with "
                    + "eval, model, dataset, case_id, scorer, status, ...)");
        }
        return node;
    }

    /** The line that starts at an offset of a file, read with a channel that stays open. */
    static final class Reader implements AutoCloseable {
        private final Path file;
        private final FileChannel channel;
        private ByteBuffer buffer = ByteBuffer.allocate(4096);

        Reader(Path file) throws IOException {
            this.file = file;
            this.channel = FileChannel.open(file, StandardOpenOption.READ);
        }

        /** The line at the offset, read in one positional read when it fits the buffer (which grows to fit). */
        JsonNode lineAt(long offset) throws IOException {
            while (true) {
                buffer.clear();
                int read = 0;
                while (buffer.hasRemaining()) {
                    int n = channel.read(buffer, offset + read);
                    if (n <= 0) {
                        break;
                    }
                    read += n;
                }
                byte[] bytes = buffer.array();
                for (int i = 0; i < read; i++) {
                    if (bytes[i] == '\n') {
                        return parse(file + " at byte " + offset, new String(bytes, 0, i, StandardCharsets.UTF_8));
                    }
                }
                if (read < buffer.capacity()) {
                    return parse(file + " at byte " + offset, new String(bytes, 0, read, StandardCharsets.UTF_8));
                }
                buffer = ByteBuffer.allocate(buffer.capacity() * 2);
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
