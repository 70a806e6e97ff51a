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

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;

import dev.agentarena.junit.engine.json.Json;

/**
 * JSON Lines: one object per line, blank lines skipped. A malformed line fails alone, and so does a line whose bytes
 * are not UTF-8: lines are split on bytes and each is decoded strictly, so the next line reads as usual.
 */
final class JsonLinesReader extends RowReader {

    // Trailing tokens would otherwise be ignored silently: {"id": "a"} {"id": "b"} is two rows glued together.
    private static final ObjectReader LINE = Json.MAPPER.readerFor(JsonNode.class)
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final InputStream in;
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
    private int lineNumber;
    private boolean blankLinesOnly;

    JsonLinesReader(DatasetSource source, InputStream in) {
        super(source, in);
        this.in = in;
    }

    @Override
    DatasetRow readNext() throws IOException {
        while (nextLine()) {
            lineNumber++;
            int start = lineNumber == 1 && startsWithByteOrderMark() ? 3 : 0;
            String text = decode(start);
            if (text == null) {
                return failed(lineNumber, InvalidUtf8Exception.describe(undecoded, undecodedLength)
                        + " (column " + (chars.position() + 1) + ")");
            }
            if (text.isBlank()) {
                blankLinesOnly = true;
                continue;
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

    /** Reads the next line, without its line break, into {@link #line}; {@code false} at the end of the file. */
    private boolean nextLine() throws IOException {
        lineLength = 0;
        boolean any = false;
        while (true) {
            if (position == limit) {
                limit = in.read(buffer);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    return any;
                }
            }
            any = true;
            int end = position;
            while (end < limit && buffer[end] != '\n') {
                end++;
            }
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

    @Override
    int currentLine() {
        return Math.max(1, lineNumber);
    }
}
