package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;

/**
 * How many rows {@link JsonLinesReader} makes of a file, counted from its bytes without reading a row: one per line
 * that is not blank, or one failed row for a file without any. It is the console's progress total, counted on a
 * thread of its own while the cases run, so it costs a scan for line breaks rather than a second reading of the rows.
 *
 * <p>A line is blank as {@link String#isBlank()} says of its decoded text. Most lines are settled by their first byte;
 * a line that starts with bytes that are not ASCII is blank only when they are whitespace characters ({@code U+1680},
 * {@code U+2000}-{@code U+200A} but {@code U+2007}, {@code U+2028}, {@code U+2029}, {@code U+205F}, {@code U+3000}, all
 * three bytes long in UTF-8); any other character, or bytes that are not UTF-8 (a failed row), make it a row.
 */
final class JsonLinesRowCount {

    private final byte[] buffer = new byte[64 * 1024];
    private long rows;
    /** Whether the current line is known to be a row; its end is all that is left to find. */
    private boolean row;
    /** The bytes so far of a character that is not ASCII, before the line is known to be a row. */
    private int pending;
    private int pendingLength;

    private JsonLinesRowCount() {
    }

    /** The rows of the JSON Lines in the stream, which is read to its end and left open. */
    static long rows(InputStream in) throws IOException {
        return new JsonLinesRowCount().count(in);
    }

    private long count(InputStream in) throws IOException {
        PushbackInputStream stream = new PushbackInputStream(in, 3);
        skipByteOrderMark(stream);
        for (int limit = stream.read(buffer); limit >= 0; limit = stream.read(buffer)) {
            scan(limit);
        }
        if (row || pendingLength > 0) {
            // the last line has no line break; a character cut short by the end of the file fails its row
            rows++;
        }
        // a file without any row yields one failed row, named after the file
        return Math.max(1, rows);
    }

    /**
     * Counts the lines of the buffer's first {@code limit} bytes, a call of {@link #line} per line: the work of a line
     * is in a method called per line, which the JIT compiles early, not in this loop, which runs once per buffer.
     */
    private void scan(int limit) {
        for (int i = 0; i < limit; i = line(i, limit)) {
            // each call reads up to a line's end
        }
    }

    /**
     * Reads from {@code i} up to the next line break (or the buffer's end) and answers where to read on: one call per
     * line whose first byte settles it, which is nearly every line.
     */
    private int line(int i, int limit) {
        while (!row) {
            if (i == limit) {
                return limit;
            }
            byte b = buffer[i++];
            if (b == '\n') {
                // a character cut short by the line break: a row that fails
                endLine(pendingLength > 0);
                return i;
            }
            if (pendingLength > 0 || b < 0) {
                character(b);
            }
            else if (!isAsciiWhitespace(b)) {
                row = true;
            }
        }
        int end = JsonLinesReader.indexOfNewline(buffer, i, limit);
        if (end == limit) {
            return limit;
        }
        endLine(true);
        return end + 1;
    }

    /** One more byte of a character that is not ASCII: when it is whole, is it whitespace? */
    private void character(byte b) {
        pending = pending << 8 | b & 0xFF;
        if (++pendingLength < 3) {
            return;
        }
        row = !isWhitespace(pending);
        pending = 0;
        pendingLength = 0;
    }

    private void endLine(boolean isRow) {
        if (isRow) {
            rows++;
        }
        row = false;
        pending = 0;
        pendingLength = 0;
    }

    /** The ASCII characters {@link Character#isWhitespace} takes: tab to carriage return, the four separators, space. */
    private static boolean isAsciiWhitespace(byte b) {
        return b == ' ' || b >= '\t' && b <= '\r' || b >= 0x1C && b <= 0x1F;
    }

    /** Whether three bytes are the UTF-8 of a character {@link Character#isWhitespace} takes. */
    static boolean isWhitespace(int threeBytes) {
        return threeBytes == 0xE19A80 // U+1680
                || threeBytes >= 0xE28080 && threeBytes <= 0xE2808A && threeBytes != 0xE28087 // U+2000-U+200A, not U+2007
                || threeBytes == 0xE280A8 || threeBytes == 0xE280A9 // U+2028, U+2029
                || threeBytes == 0xE2819F // U+205F
                || threeBytes == 0xE38080; // U+3000
    }

    /** Skips U+FEFF's three bytes at the start, as the reader does. */
    private static void skipByteOrderMark(PushbackInputStream stream) throws IOException {
        byte[] start = stream.readNBytes(3);
        if (start.length != 3 || (start[0] & 0xFF) != 0xEF || (start[1] & 0xFF) != 0xBB || (start[2] & 0xFF) != 0xBF) {
            stream.unread(start);
        }
    }
}
