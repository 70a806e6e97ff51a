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
import dev.agentarena.junit.engine.results.SinkText;

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
            if (number == 1 && text.startsWith("\uFEFF")) {
                // a byte order mark, as some editors on Windows write one
                text = text.substring(1);
            }
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
            // Jackson's "(start marker at [Source: REDACTED ...; line: 1, column: 1])" says nothing the line does not
            throw new IOException(where + ": not a result (not JSON: " + e.getOriginalMessage()
                    .replaceAll("\\s*\\(start marker at \\[Source:.*?\\]\\)", "") + ")", e);
        }
        if (node == null || !node.isObject() || !node.hasNonNull("case_id") || !node.hasNonNull("model")) {
            throw new IOException(where + ": not a result (a results line is a JSON object with "
                    + "eval, model, dataset, case_id, scorer, status, ...)");
        }
        String fault = fault(node);
        if (fault != null) {
            throw new IOException(where + ": not a result (" + fault + ")");
        }
        return node;
    }

    /**
     * What makes a JSON object no results line, or {@code null}: a comparison that read a wrong field as missing
     * (a score of {@code "abc"}, an unknown status) would call the case unchanged, silently.
     */
    private static String fault(JsonNode node) {
        for (String field : new String[] {"eval", "model", "case_id", "scorer", "status"}) {
            JsonNode value = node.get(field);
            if (value == null || !value.isTextual()) {
                return "\"" + field + "\" is " + shown(value) + ", not a text";
            }
        }
        JsonNode dataset = node.get("dataset");
        if (dataset != null && !dataset.isNull() && !dataset.isTextual()) {
            return "\"dataset\" is " + shown(dataset) + ", not a text";
        }
        ResultStatus status;
        try {
            status = ResultStatus.fromJsonName(node.get("status").asText());
        }
        catch (IllegalArgumentException e) {
            return "\"status\" is " + shown(node.get("status")) + ", not one of passed, failed, error, "
                    + "not_applicable, not_run";
        }
        JsonNode score = node.get("score");
        if (score != null && !score.isNull() && !score.isNumber()) {
            return "\"score\" is " + shown(score) + ", not a number";
        }
        if (status.counts() && (score == null || !score.isNumber())) {
            return "a " + status.jsonName() + " result without a \"score\"";
        }
        JsonNode repeat = node.get("repeat");
        if (repeat != null && !repeat.isNull() && !(repeat.canConvertToInt() && repeat.isIntegralNumber()
                && repeat.asInt() >= 0)) {
            return "\"repeat\" is " + shown(repeat) + ", not a whole number from 0";
        }
        return null;
    }

    /** A field's value as the message shows it, cut short. */
    private static String shown(JsonNode value) {
        if (value == null) {
            return "missing";
        }
        return SinkText.name(value.toString(), 60);
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
