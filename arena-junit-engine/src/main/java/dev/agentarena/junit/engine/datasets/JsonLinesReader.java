package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;

/**
 * JSON Lines: one object per line, blank lines skipped. A malformed line fails alone, and so does a line whose bytes
 * are not UTF-8: lines are split on bytes and each is decoded strictly, so the next line reads as usual.
 *
 * <p>Three readings, each taking what the one before cannot, so that a line is read once at the cost its shape needs:
 * <ol>
 * <li>{@link FlatRow}, straight from the line's bytes into a case's fields: a flat object of known fields, which is
 * what nearly every line of a dataset is (a million-row file spent more on a parser per line, a decoded copy of the
 * line and a tree than on everything else it did per row). It reads a line where it is in the buffer, and finds its
 * end as it reads: a line it takes there is neither searched for its line break first nor copied out of the buffer;
 * a line it does not take there is split off as any line is;
 * <li>{@link #quickTree}, one pass of a plain parser over the decoded line that builds its tree: nested values,
 * unknown keys;
 * <li>{@link RowParser} and databind, which say exactly what is wrong with a line (malformed, a repeated key, a
 * value other than an object) or build its numbers.
 * </ol>
 * A line the first two readings do not take is read again from its start by the next, so its row, its error
 * messages and its line number are those of the last reading whatever the line holds.
 */
final class JsonLinesReader extends RowReader {

    // Trailing tokens would otherwise be ignored silently: {"id": "a"} {"id": "b"} is two rows glued together.
    private static final ObjectReader LINE = Json.MAPPER.readerFor(JsonNode.class)
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** Eight bytes of an array as a long, the first byte lowest. */
    static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    static final JsonNodeFactory NODES = Json.MAPPER.getNodeFactory();

    private final InputStream in;
    /** The first reading, {@code null} when it is off: for plain rows, and for tests that compare the readings. */
    private final FlatRow flat;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;
    private byte[] line = new byte[256];
    private CharBuffer chars = CharBuffer.allocate(256);
    private ByteBuffer undecoded;
    private int undecodedLength;
    private int lineLength;
    /** How many times {@link #buffer} was filled: whether a line was whole in it when read there. */
    private long reads;
    private int lineNumber;
    private boolean blankLinesOnly;

    JsonLinesReader(DatasetSource source, InputStream in) {
        this(source, in, true);
    }

    /** A reader whose first reading ({@link FlatRow}) is on or off: tests compare the rows of both. */
    JsonLinesReader(DatasetSource source, InputStream in, boolean flatRows) {
        super(source, in);
        this.in = in;
        this.flat = flatRows ? new FlatRow() : null;
    }

    @Override
    DatasetRow readNext() throws IOException {
        // Most lines: read where they are in the buffer, their end found by the reading (not line 1: a byte order mark)
        boolean readInBuffer = flat != null && !isPlain() && lineNumber > 0 && position < limit;
        if (readInBuffer) {
            JsonNode[] fields = flat.readLine(buffer, position, limit);
            if (fields != null) {
                position = flat.lineBreak() + 1;
                lineNumber++;
                return flatRow(fields, lineNumber);
            }
        }
        long readsBefore = reads;
        while (nextLine()) {
            lineNumber++;
            int start = lineNumber == 1 && startsWithByteOrderMark() ? 3 : 0;
            // a line that was whole in the buffer and not taken there is not taken alone either
            boolean tried = readInBuffer && reads == readsBefore;
            readInBuffer = false;
            if (flat != null && !isPlain() && !tried) {
                JsonNode[] fields = flat.read(line, start, lineLength);
                if (fields != null) {
                    return flatRow(fields, lineNumber);
                }
            }
            String text = decode(start);
            if (text == null) {
                return failed(lineNumber, InvalidUtf8Exception.describe(undecoded, undecodedLength)
                        + " (column " + (chars.position() + 1) + ")");
            }
            if (text.isBlank()) {
                blankLinesOnly = true;
                continue;
            }
            JsonNode quick = quickTree(text);
            if (quick != null) {
                return row(quick, lineNumber, List.of());
            }
            JsonNode node;
            RowParser parser = new RowParser(LINE.createParser(text));
            // a parser over one line counts from line 1
            parser.startRow(1);
            try {
                node = LINE.readTree(parser);
            }
            catch (JsonProcessingException e) {
                return failed(lineNumber, "malformed JSON: " + ParseErrors.describe(e, true));
            }
            return row(node, lineNumber, parser.problems());
        }
        return null;
    }

    /**
     * The line's object as {@link #LINE} would read it, in one pass; {@code null} when the line needs the full reading:
     * it is malformed or not one object, repeats a key (which {@link RowParser} reports) or holds a number (whose
     * node databind chooses: int, long, big integer, double...).
     */
    static ObjectNode quickTree(String text) {
        try (JsonParser parser = LINE.createParser(text)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            ObjectNode object = object(parser);
            // Trailing tokens: two rows glued together, refused by the full reading.
            return object != null && parser.nextToken() == null ? object : null;
        }
        catch (IOException e) {
            return null;
        }
    }

    /** The object the parser is in, up to its end; {@code null} when the quick reading does not apply. */
    private static ObjectNode object(JsonParser parser) throws IOException {
        ObjectNode object = NODES.objectNode();
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
            String name = parser.currentName();
            JsonNode value = value(parser, parser.nextToken());
            if (value == null || object.replace(name, value) != null) {
                return null;
            }
        }
        return object;
    }

    private static ArrayNode array(JsonParser parser) throws IOException {
        ArrayNode array = NODES.arrayNode();
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            JsonNode value = value(parser, token);
            if (value == null) {
                return null;
            }
            array.add(value);
        }
        return array;
    }

    /** The value at a token as databind builds it, or {@code null} for a number or anything else unexpected. */
    private static JsonNode value(JsonParser parser, JsonToken token) throws IOException {
        if (token == null) {
            return null;
        }
        return switch (token) {
            case VALUE_STRING -> NODES.textNode(parser.getText());
            case START_OBJECT -> object(parser);
            case START_ARRAY -> array(parser);
            case VALUE_TRUE -> NODES.booleanNode(true);
            case VALUE_FALSE -> NODES.booleanNode(false);
            case VALUE_NULL -> NODES.nullNode();
            default -> null;
        };
    }

    @Override
    String whyEmpty() {
        return blankLinesOnly ? "the file holds only blank lines" : "the file is empty";
    }

    /** Reads the next line, without its line break, into {@link #line}; {@code false} at the end of the file. */
    private boolean nextLine() throws IOException {
        lineLength = 0;
        boolean any = false;
        while (true) {
            if (position == limit) {
                reads++;
                limit = in.read(buffer);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    return any;
                }
            }
            any = true;
            int end = indexOfNewline(buffer, position, limit);
            append(position, end);
            if (end < limit) {
                position = end + 1;
                if (lineLength > 0 && line[lineLength - 1] == '\r') {
                    lineLength--;
                }
                return true;
            }
            position = limit;
        }
    }

    /**
     * The index of the first {@code '\n'} in {@code bytes[from, to)}, or {@code to}: eight bytes at a time, as a line
     * of a dataset is a few hundred bytes and this search was most of splitting the file into lines.
     */
    static int indexOfNewline(byte[] bytes, int from, int to) {
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long word = (long) LONGS.get(bytes, i) ^ 0x0A0A0A0A0A0A0A0AL;
            // a high bit set in each byte of the word that is zero, i.e. was '\n'; the lowest one is the first
            long newlines = (word - 0x0101010101010101L) & ~word & 0x8080808080808080L;
            if (newlines != 0) {
                return i + (Long.numberOfTrailingZeros(newlines) >>> 3);
            }
        }
        while (i < to && bytes[i] != '\n') {
            i++;
        }
        return i;
    }

    private void append(int from, int to) {
        int length = to - from;
        if (lineLength + length > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + length));
        }
        System.arraycopy(buffer, from, line, lineLength, length);
        lineLength += length;
    }

    private boolean startsWithByteOrderMark() {
        return lineLength >= 3 && (line[0] & 0xFF) == 0xEF && (line[1] & 0xFF) == 0xBB && (line[2] & 0xFF) == 0xBF;
    }

    /** The line as text, or {@code null} when its bytes are not UTF-8 (then {@link #undecoded} points at them). */
    private String decode(int start) {
        if (chars.capacity() < lineLength) {
            chars = CharBuffer.allocate(Math.max(chars.capacity() * 2, lineLength));
        }
        if (isAscii(start)) {
            // Most lines: every byte is its own character, and decoding is a copy.
            return new String(line, start, lineLength - start, StandardCharsets.ISO_8859_1);
        }
        chars.clear();
        undecoded = ByteBuffer.wrap(line, start, lineLength - start);
        decoder.reset();
        CoderResult result = decoder.decode(undecoded, chars, true);
        if (result.isError()) {
            undecodedLength = result.length();
            return null;
        }
        decoder.flush(chars);
        return chars.flip().toString();
    }

    private boolean isAscii(int start) {
        for (int i = start; i < lineLength; i++) {
            if (line[i] < 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    int currentLine() {
        return Math.max(1, lineNumber);
    }
}
