package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;

import dev.agentarena.junit.engine.json.Json;

/**
 * JSON Lines: one object per line, blank lines skipped. Lines are split on bytes, so a malformed line, or one whose
 * bytes are not UTF-8, fails alone and the next line reads as usual.
 *
 * <p>Three readings through Jackson, each taking what the one before cannot, so that a line costs what its shape needs:
 * <ol>
 * <li>{@link KnownFields}, the streaming parser over the line's bytes straight into a case's fields: an object of known
 * fields, which is what nearly every line of a dataset is. It reads a line where it is in the buffer, one parser for
 * the lines of a buffer, and finds the line's end as it reads; a line it does not take there is split off as any line
 * is;
 * <li>{@link #TREE}, databind's tree of the line decoded strictly as UTF-8: unknown keys, and rows read as plain fields;
 * <li>{@link RowParser} and databind, which say exactly what is wrong with a line: malformed, a repeated key, a value
 * other than an object.
 * </ol>
 * A line a reading does not take is read again from its start by the next, so its row, its error messages and its line
 * number are those of the last reading whatever the line holds.
 */
final class JsonLinesReader extends RowReader {

    // Trailing tokens would otherwise be ignored silently: {"id": "a"} {"id": "b"} is two rows glued together.
    private static final ObjectReader LINE = Json.MAPPER.readerFor(JsonNode.class)
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** The line as {@link #LINE} reads it when no key repeats; {@link RowParser} names a repeated one. */
    private static final ObjectReader TREE = LINE.with(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

    private final InputStream in;
    /** The first reading, {@code null} when it is off: tests compare the rows of both. */
    private final KnownFields known;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;
    /** A line that does not lie whole in {@link #buffer}, gathered here. */
    private byte[] gathered = new byte[256];
    /** The current line, without its line break: {@code lineBytes[lineFrom, lineTo)}, in the buffer or gathered. */
    private byte[] lineBytes;
    private int lineFrom;
    private int lineTo;
    private CharBuffer chars = CharBuffer.allocate(256);
    private ByteBuffer undecoded;
    private int undecodedLength;
    /** How many times {@link #buffer} was filled: whether a line was whole in it when read there. */
    private long reads;
    private int lineNumber;
    private boolean blankLinesOnly;

    JsonLinesReader(DatasetSource source, InputStream in) {
        this(source, in, new KnownFields());
    }

    /** A reader with this first reading, or none ({@code null}): tests compare the rows of each. */
    JsonLinesReader(DatasetSource source, InputStream in, KnownFields known) {
        super(source, in);
        this.in = in;
        this.known = known;
    }

    @Override
    DatasetRow readNext() throws IOException {
        // Most lines: read where they are in the buffer, their end found by the reading (not line 1: a byte order mark)
        boolean inBuffer = known != null && !isPlain() && lineNumber > 0 && position < limit;
        if (inBuffer) {
            JsonNode[] fields = known.readInBuffer(buffer, position, limit);
            if (fields != null) {
                position = known.lineBreak() + 1;
                lineNumber++;
                return knownRow(fields, lineNumber);
            }
        }
        if (known != null) {
            // lines are split off from here on: the parser over the buffer is behind
            known.forget();
        }
        long readsBefore = reads;
        while (nextLine()) {
            lineNumber++;
            if (lineNumber == 1 && startsWithByteOrderMark()) {
                lineFrom += 3;
            }
            // a line that was whole in the buffer and not taken there is not taken alone either
            boolean tried = inBuffer && reads == readsBefore;
            inBuffer = false;
            if (known != null && !isPlain() && !tried) {
                JsonNode[] fields = known.read(lineBytes, lineFrom, lineTo);
                if (fields != null) {
                    return knownRow(fields, lineNumber);
                }
            }
            String text = decode();
            if (text == null) {
                return failed(lineNumber, InvalidUtf8Exception.describe(undecoded, undecodedLength)
                        + " (column " + (chars.position() + 1) + ")");
            }
            if (text.isBlank()) {
                blankLinesOnly = true;
                continue;
            }
            try {
                return row(TREE.readTree(text), lineNumber, List.of());
            }
            catch (JsonProcessingException e) {
                // the full reading says what is wrong
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

    @Override
    String whyEmpty() {
        return blankLinesOnly ? "the file holds only blank lines" : "the file is empty";
    }

    /**
     * Finds the next line, without its line break: where it lies in the buffer when it is whole there, else gathered
     * from reads; {@code false} at the end of the file.
     */
    private boolean nextLine() throws IOException {
        int gatheredLength = 0;
        boolean any = false;
        while (true) {
            if (position == limit) {
                reads++;
                limit = in.read(buffer);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    if (any) {
                        setLine(gathered, 0, gatheredLength);
                    }
                    return any;
                }
            }
            any = true;
            int end = indexOfNewline(buffer, position, limit);
            if (end < limit && gatheredLength == 0) {
                setLine(buffer, position, end);
                position = end + 1;
                return true;
            }
            int length = end - position;
            if (gatheredLength + length > gathered.length) {
                gathered = Arrays.copyOf(gathered, Math.max(gathered.length * 2, gatheredLength + length));
            }
            System.arraycopy(buffer, position, gathered, gatheredLength, length);
            gatheredLength += length;
            if (end < limit) {
                position = end + 1;
                setLine(gathered, 0, gatheredLength);
                return true;
            }
            position = limit;
        }
    }

    /** The line is {@code bytes[from, to)}, a carriage return before its line break left out. */
    private void setLine(byte[] bytes, int from, int to) {
        lineBytes = bytes;
        lineFrom = from;
        lineTo = to > from && bytes[to - 1] == '\r' ? to - 1 : to;
    }

    /** The index of the first {@code '\n'} in {@code bytes[from, to)}, or {@code to}. */
    static int indexOfNewline(byte[] bytes, int from, int to) {
        int i = from;
        while (i < to && bytes[i] != '\n') {
            i++;
        }
        return i;
    }

    private boolean startsWithByteOrderMark() {
        return lineTo - lineFrom >= 3 && (lineBytes[lineFrom] & 0xFF) == 0xEF
                && (lineBytes[lineFrom + 1] & 0xFF) == 0xBB && (lineBytes[lineFrom + 2] & 0xFF) == 0xBF;
    }

    /** The line as text, or {@code null} when its bytes are not UTF-8 (then {@link #undecoded} points at them). */
    private String decode() {
        int length = lineTo - lineFrom;
        if (isAscii()) {
            // every byte is its own character
            return new String(lineBytes, lineFrom, length, StandardCharsets.ISO_8859_1);
        }
        if (chars.capacity() < length) {
            chars = CharBuffer.allocate(Math.max(chars.capacity() * 2, length));
        }
        chars.clear();
        undecoded = ByteBuffer.wrap(lineBytes, lineFrom, length);
        decoder.reset();
        CoderResult result = decoder.decode(undecoded, chars, true);
        if (result.isError()) {
            undecodedLength = result.length();
            return null;
        }
        decoder.flush(chars);
        return chars.flip().toString();
    }

    private boolean isAscii() {
        for (int i = lineFrom; i < lineTo; i++) {
            if (lineBytes[i] < 0) {
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
