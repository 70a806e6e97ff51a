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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import dev.agentarena.junit.engine.results.ResultLineCodec;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * Reads a {@code results.jsonl} one line at a time through {@link ResultLineCodec}, each with the byte offset it
 * starts at, so that a pass over a file of any size holds one line, and a line can be read again later by its offset
 * ({@link Reader#lineAt}).
 */
final class ResultLines implements AutoCloseable {

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

    /** A result's fields by name, whether read from a line as it streams by or from a tree. */
    interface Fields {

        /** The field's value, or {@code null} when the result has no such field. */
        JsonNode get(String field);

        /** The field's value, or a missing node. */
        default JsonNode path(String field) {
            JsonNode value = get(field);
            return value == null ? MissingNode.getInstance() : value;
        }

        /** The field's text ({@link JsonNode#asText}), or {@code null} when it is absent or null. */
        default String text(String field) {
            JsonNode value = get(field);
            return value == null || value.isNull() ? null : value.asText();
        }

        /** The fields of a tree. */
        static Fields of(JsonNode node) {
            return node::get;
        }
    }

    /** One result line: its fields as {@link ResultLineCodec} read them, and where it is in the file. */
    static final class Line implements Fields {
        private final long offset;
        private final long number;
        private final ResultLineCodec.Read read;

        Line(long offset, long number, ResultLineCodec.Read read) {
            this.offset = offset;
            this.number = number;
            this.read = read;
        }

        /** Where the line starts in the file. */
        long offset() {
            return offset;
        }

        /** Its line number, from 1. */
        long number() {
            return number;
        }

        @Override
        public JsonNode get(String field) {
            return read.get(field);
        }

        Double number(String field) {
            JsonNode value = get(field);
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
            if (number == 1 && text.startsWith("\uFEFF")) {
                // a byte order mark, as some editors on Windows write one: the line starts after its three bytes,
                // where lineAt reads it again
                text = text.substring(1);
                start += 3;
            }
            if (text.isBlank()) {
                continue;
            }
            return new Line(start, number, read(file + ", line " + number, text));
        }
    }

    /** The line read by the codec, or an error naming where it is and what is wrong. */
    private static ResultLineCodec.Read read(String where, String text) throws IOException {
        try {
            return ResultLineCodec.read(text);
        }
        catch (ResultLineCodec.NotAResult e) {
            throw new IOException(where + ": not a result (" + e.getMessage() + ")", e);
        }
    }

    /**
     * The tree of a JSON value as a results line's field holds it once read back (the same node types as
     * {@link #next} gives a field), for a value that never went through a results file.
     */
    static JsonNode tree(String json) throws IOException {
        return ResultLineCodec.tree(json);
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
                        return read(file + " at byte " + offset, new String(bytes, 0, i, StandardCharsets.UTF_8))
                                .tree();
                    }
                }
                if (read < buffer.capacity()) {
                    return read(file + " at byte " + offset, new String(bytes, 0, read, StandardCharsets.UTF_8))
                            .tree();
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
