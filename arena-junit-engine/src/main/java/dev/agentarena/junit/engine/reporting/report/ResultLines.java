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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;

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

    /** The fields of a results line that the report reads; the others are skipped as the line streams by. */
    static final List<String> FIELDS = List.of("eval", "model", "dataset", "case_id", "scorer", "scorer_version",
            "repeat", "score", "status", "reason", "metrics", "latency_ms", "queue_ms", "cost_usd", "tokens_in",
            "tokens_out",
            "cached", "tokens_cached", "error", "output", "tags", "input", "reference", "trajectory");

    private static final Map<String, Integer> INDEX = Map.copyOf(index());

    private static Map<String, Integer> index() {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < FIELDS.size(); i++) {
            index.put(FIELDS.get(i), i);
        }
        return index;
    }

    /**
     * One result line: the fields the report reads ({@link #FIELDS}), each the node a tree of the line would hold
     * (the line is read with a streaming parser, not into a tree: the report's pass was mostly tree building).
     */
    static final class Line implements Fields {
        private final long offset;
        private final long number;
        private final JsonNode[] values = new JsonNode[FIELDS.size()];

        Line(long offset, long number) {
            this.offset = offset;
            this.number = number;
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
            Integer at = INDEX.get(field);
            if (at == null) {
                throw new IllegalArgumentException("the report does not read the field " + field);
            }
            return values[at];
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
            return stream(file + ", line " + number, text, new Line(start, number));
        }
    }

    /**
     * Reads the line's fields as they stream by, with the same nodes and the same errors as reading it into a tree
     * ({@link #parse}): scalars become the nodes the tree would hold, objects and arrays are read as trees (an empty
     * one without the mapper), any other field is skipped; what follows the line's object is ignored, as by
     * {@code readTree}.
     */
    private static Line stream(String where, String text, Line line) throws IOException {
        try (JsonParser parser = MAPPER.createParser(text)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw notAResult(where);
            }
            for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
                JsonToken token = parser.nextToken();
                Integer at = INDEX.get(name);
                if (at == null) {
                    parser.skipChildren();
                    continue;
                }
                line.values[at] = value(parser, token);
            }
        }
        catch (JsonProcessingException e) {
            throw notJson(where, e);
        }
        if (!nonNull(line.get("case_id")) || !nonNull(line.get("model"))) {
            throw notAResult(where);
        }
        String fault = fault(line);
        if (fault != null) {
            throw new IOException(where + ": not a result (" + fault + ")");
        }
        return line;
    }

    private static boolean nonNull(JsonNode value) {
        return value != null && !value.isNull();
    }

    /**
     * The tree of a JSON value as a results line's field holds it once read back (the same node types as
     * {@link #next} gives a field), for a value that never went through a results file.
     */
    static JsonNode tree(String json) throws IOException {
        try (JsonParser parser = MAPPER.createParser(json)) {
            return value(parser, parser.nextToken());
        }
    }

    /** The node of the value at the parser, as {@code readTree} would build it with the shared mapper. */
    private static JsonNode value(JsonParser parser, JsonToken token) throws IOException {
        return switch (token) {
            case VALUE_STRING -> TextNode.valueOf(parser.getText());
            case VALUE_NULL -> NullNode.getInstance();
            case VALUE_TRUE -> BooleanNode.TRUE;
            case VALUE_FALSE -> BooleanNode.FALSE;
            case VALUE_NUMBER_INT -> switch (parser.getNumberType()) {
                case INT -> IntNode.valueOf(parser.getIntValue());
                case LONG -> LongNode.valueOf(parser.getLongValue());
                default -> BigIntegerNode.valueOf(parser.getBigIntegerValue());
            };
            case VALUE_NUMBER_FLOAT -> parser.getNumberType() == JsonParser.NumberType.BIG_DECIMAL
                    ? DecimalNode.valueOf(parser.getDecimalValue()) : DoubleNode.valueOf(parser.getDoubleValue());
            case START_OBJECT -> parser.nextToken() == JsonToken.END_OBJECT ? MAPPER.createObjectNode()
                    : rest(parser, MAPPER.createObjectNode());
            case START_ARRAY -> {
                JsonToken first = parser.nextToken();
                if (first == JsonToken.END_ARRAY) {
                    yield MAPPER.createArrayNode();
                }
                var array = MAPPER.createArrayNode();
                for (JsonToken element = first; element != JsonToken.END_ARRAY; element = parser.nextToken()) {
                    array.add(value(parser, element));
                }
                yield array;
            }
            default -> MAPPER.readTree(parser);
        };
    }

    /** The rest of an object whose first field name the parser is at. */
    private static JsonNode rest(JsonParser parser, com.fasterxml.jackson.databind.node.ObjectNode object)
            throws IOException {
        for (String name = parser.currentName(); name != null; name = parser.nextFieldName()) {
            object.replace(name, value(parser, parser.nextToken()));
        }
        return object;
    }

    private static IOException notJson(String where, JsonProcessingException e) {
        // Jackson's "(start marker at [Source: REDACTED ...; line: 1, column: 1])" says nothing the line does not
        return new IOException(where + ": not a result (not JSON: " + e.getOriginalMessage()
                .replaceAll("\\s*\\(start marker at \\[Source:.*?\\]\\)", "") + ")", e);
    }

    private static IOException notAResult(String where) {
        return new IOException(where + ": not a result (a results line is a JSON object with "
                + "eval, model, dataset, case_id, scorer, status, ...)");
    }

    private static JsonNode parse(String where, String text) throws IOException {
        JsonNode node;
        try {
            node = MAPPER.readTree(text);
        }
        catch (JsonProcessingException e) {
            throw notJson(where, e);
        }
        if (node == null || !node.isObject() || !node.hasNonNull("case_id") || !node.hasNonNull("model")) {
            throw new IOException(where + ": not a result (a results line is a JSON object with "
                    + "eval, model, dataset, case_id, scorer, status, ...)");
        }
        String fault = fault(Fields.of(node));
        if (fault != null) {
            throw new IOException(where + ": not a result (" + fault + ")");
        }
        return node;
    }

    /**
     * What makes a JSON object no results line, or {@code null}: a comparison that read a wrong field as missing
     * (a score of {@code "abc"}, an unknown status) would call the case unchanged, silently.
     */
    private static String fault(Fields node) {
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
        // 1e999 reads as a number, infinite: every mean and delta over it would be too
        if (score != null && score.isNumber() && !(score.asDouble() >= 0 && score.asDouble() <= 1)) {
            // shown as the number read: 1e999 is Infinity
            return "\"score\" is " + score.asDouble() + ", not a number from 0 to 1";
        }
        for (String field : new String[] {"cost_usd", "latency_ms"}) {
            JsonNode value = node.get(field);
            if (value != null && value.isNumber() && !Double.isFinite(value.asDouble())) {
                return "\"" + field + "\" is " + value.asDouble() + ", not a finite number";
            }
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
