package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.Decimals;

/**
 * The page's data chunks written straight as the UTF-8 bytes the page holds: the bytes a Jackson generator writing
 * through {@link EmbeddedJson} into a UTF-8 writer gave, without the generator's character buffer, the escaping
 * writer's second pass and the encoder. The record of every result of a large run goes through here (on the run's main
 * thread, for {@link InRunReport}), and those three layers were most of its cost.
 *
 * <p>A string is written as Jackson writes it ({@code \"}, {@code \\}, the short escapes {@code \b \t \n \f \r}, every
 * other control character as {@code \}{@code u00XX} with upper-case digits), then made safe for the page as
 * {@link EmbeddedJson} makes it (each character it {@linkplain EmbeddedJson#escaped escapes} as
 * {@code \}{@code uxxxx} with lower-case digits: so every surrogate, paired or not, is an escape, and the bytes never
 * hold an unpaired one);
 * a number as Jackson writes it ({@link Double#toString} for a finite double); a tree (metrics, a trajectory) by Jackson
 * itself, then made safe. Values in an array are separated as a generator separates them, a comma before each
 * but the first. A text known to be {@linkplain #plain plain} (its caller looked at it once already) is copied as
 * its bytes. {@code DataBytesTest} holds the bytes equal to the generator's for every character and many numbers.
 */
final class DataBytes {

    private static final byte[] HEX_LOWER = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HEX_UPPER = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    /** Room kept for the longest form of one character (an escape) or one number. */
    private static final int ROOM = 32;

    /**
     * Per ASCII character inside a string: 0 written as is, a letter for Jackson's short escape ({@code "} and
     * {@code \} stand for themselves), 'U' for Jackson's {@code \}{@code u00XX}, 'u' for {@link EmbeddedJson}'s escape.
     */
    private static final byte[] ASCII = new byte[128];

    static {
        for (int c = 0; c < 0x20; c++) {
            ASCII[c] = 'U';
        }
        ASCII['\b'] = 'b';
        ASCII['\t'] = 't';
        ASCII['\n'] = 'n';
        ASCII['\f'] = 'f';
        ASCII['\r'] = 'r';
        ASCII['"'] = '"';
        ASCII['\\'] = '\\';
        for (int c = 0x20; c < 0x80; c++) {
            if (ASCII[c] == 0 && EmbeddedJson.escaped((char) c)) {
                ASCII[c] = 'u';
            }
        }
    }

    private final OutputStream out;
    private byte[] bytes = new byte[1 << 16];
    private int length;
    // whether the next value of the current array follows one (a comma first)
    private boolean follows;
    // a slice of the text being written
    private final char[] chars = new char[4096];

    /** Bytes that go to {@code out} as the buffer fills, and at {@link #drain}. */
    DataBytes(OutputStream out) {
        this.out = out;
    }

    /** Writes what is buffered to the stream (not flushing it). */
    void drain() throws IOException {
        if (length > 0) {
            out.write(bytes, 0, length);
            length = 0;
        }
    }

    private void room(int needed) throws IOException {
        if (length + needed > bytes.length) {
            drain();
            if (needed > bytes.length) {
                bytes = new byte[needed];
            }
        }
    }

    /** Text outside the JSON values (the chunk's markup), ASCII only. */
    void markup(String ascii) throws IOException {
        room(ascii.length());
        for (int i = 0; i < ascii.length(); i++) {
            bytes[length++] = (byte) ascii.charAt(i);
        }
    }

    /** Starts an array, as a value of the enclosing one if any. */
    void startArray() throws IOException {
        value();
        bytes[length++] = '[';
        follows = false;
    }

    /** Starts the outermost array of a chunk. */
    void startRoot() throws IOException {
        room(ROOM);
        bytes[length++] = '[';
        follows = false;
    }

    /** Ends an array. */
    void endArray() throws IOException {
        room(ROOM);
        bytes[length++] = ']';
        follows = true;
    }

    /** Makes room for one small value and writes its separator. */
    private void value() throws IOException {
        room(ROOM);
        if (follows) {
            bytes[length++] = ',';
        }
        follows = true;
    }

    void nullValue() throws IOException {
        value();
        bytes[length++] = 'n';
        bytes[length++] = 'u';
        bytes[length++] = 'l';
        bytes[length++] = 'l';
    }

    void number(long value) throws IOException {
        value();
        digits(value);
    }

    private void digits(long value) {
        if (value >= 0 && value < 10) {
            bytes[length++] = (byte) ('0' + value);
            return;
        }
        if (value == Long.MIN_VALUE) {
            ascii(Long.toString(value));
            return;
        }
        if (value < 0) {
            bytes[length++] = '-';
            value = -value;
        }
        int count = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            count++;
        }
        int end = length + count;
        for (int at = end - 1; at >= length; at--) {
            bytes[at] = (byte) ('0' + value % 10);
            value /= 10;
        }
        length = end;
    }

    private void ascii(String text) {
        for (int i = 0; i < text.length(); i++) {
            bytes[length++] = (byte) text.charAt(i);
        }
    }

    /**
     * A double as Jackson writes it: {@link Double#toString} when finite (a whole number of moderate size directly,
     * others through {@link Decimals#shortest}, which remembers the text: a run's scores and costs take few values),
     * else the quoted text of {@link String#valueOf(double)}.
     */
    void number(double value) throws IOException {
        if (!Double.isFinite(value)) {
            string(String.valueOf(value));
            return;
        }
        value();
        double magnitude = Math.abs(value);
        if (magnitude < 1e7 && (magnitude >= 1e-3 || value == 0) && value == (long) value) {
            // Double.toString writes such a value as its integer and ".0", the sign of -0.0 kept
            if (value == 0 && Double.doubleToRawLongBits(value) != 0) {
                bytes[length++] = '-';
            }
            digits((long) value);
            bytes[length++] = '.';
            bytes[length++] = '0';
            return;
        }
        ascii(Decimals.shortest(value));
    }

    /** A string value, or {@code null}. */
    void string(String text) throws IOException {
        if (text == null) {
            nullValue();
            return;
        }
        value();
        bytes[length++] = '"';
        characters(text, true);
        room(1);
        bytes[length++] = '"';
    }

    /**
     * Whether the text is written as it is, each character one byte: printable ASCII that neither Jackson nor
     * {@link EmbeddedJson} escapes ({@code "}, {@code \\}, {@code <}, {@code >}, {@code &} and the controls are not),
     * so it holds no surrogate either and is its own well-formed form ({@link
     * dev.agentarena.junit.engine.results.SinkText#wellFormed}). Nearly every text of a run is.
     */
    static boolean plain(String text) {
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c >= 0x80 || ASCII[c] != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * A string value that is {@linkplain #plain plain}: the bytes {@link #string} writes for it, copied from the text
     * without looking at each character again. A text longer than half the buffer goes through {@link #string}, a
     * slice at a time, so that the buffer does not grow for it.
     */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): the low byte of each char, its ASCII
    void plainString(String text) throws IOException {
        int n = text.length();
        if (n > bytes.length / 2) {
            string(text);
            return;
        }
        room(n + ROOM);
        value();
        byte[] buffer = bytes;
        buffer[length++] = '"';
        text.getBytes(0, n, buffer, length);
        length += n;
        buffer[length++] = '"';
    }

    /**
     * JSON text a Jackson generator wrote (a tree), made safe for the page as {@link EmbeddedJson} makes it; its
     * strings are already escaped as Jackson escapes them.
     */
    void tree(JsonNode tree) throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = Json.MAPPER.getFactory().createGenerator(text)) {
            json.writeTree(tree);
        }
        value();
        characters(text.toString(), false);
    }

    /**
     * The characters of a text, a slice at a time copied out of it (a loop over an array is cheaper than one over
     * {@link String#charAt}), each escaped as Jackson escapes it inside a string (when {@code inString}) and as
     * {@link EmbeddedJson} escapes it.
     */
    private void characters(String text, boolean inString) throws IOException {
        char[] slice = chars;
        int n = text.length();
        for (int from = 0; from < n; from += slice.length) {
            int count = Math.min(slice.length, n - from);
            text.getChars(from, from + count, slice, 0);
            // room for every character as an escape: no test for room per character
            room(6 * count);
            byte[] buffer = bytes;
            int at = length;
            int i = 0;
            while (i < count) {
                // a printable ASCII character that neither Jackson nor EmbeddedJson escapes (nearly all of the data)
                char c = slice[i++];
                if (c < 0x80 && ASCII[c] == 0) {
                    buffer[at++] = (byte) c;
                }
                else {
                    at = special(buffer, at, c, inString);
                }
            }
            length = at;
        }
    }

    /**
     * Any other character: Jackson's escape inside a string (when {@code inString}), {@link EmbeddedJson}'s, or its
     * UTF-8 bytes. Apart from the loop above, whose first branch takes nearly every character.
     */
    private static int special(byte[] buffer, int at, char c, boolean inString) {
        if (c >= 0x80) {
            return other(buffer, at, c);
        }
        byte kind = ASCII[c];
        if (kind == 0 || !inString && kind != 'u') {
            buffer[at++] = (byte) c;
            return at;
        }
        if (kind == 'u') {
            return escape(buffer, at, c, HEX_LOWER);
        }
        if (kind == 'U') {
            return escape(buffer, at, c, HEX_UPPER);
        }
        buffer[at++] = '\\';
        buffer[at++] = kind;
        return at;
    }

    /** A character from U+0080: {@link EmbeddedJson}'s escape, or its UTF-8 bytes (never a surrogate: escaped). */
    private static int other(byte[] buffer, int at, char c) {
        if (EmbeddedJson.escaped(c)) {
            return escape(buffer, at, c, HEX_LOWER);
        }
        if (c < 0x800) {
            buffer[at++] = (byte) (0xC0 | c >> 6);
        }
        else {
            buffer[at++] = (byte) (0xE0 | c >> 12);
            buffer[at++] = (byte) (0x80 | (c >> 6) & 0x3F);
        }
        buffer[at++] = (byte) (0x80 | c & 0x3F);
        return at;
    }

    private static int escape(byte[] buffer, int at, char c, byte[] hex) {
        buffer[at++] = '\\';
        buffer[at++] = 'u';
        buffer[at++] = hex[c >> 12 & 0xF];
        buffer[at++] = hex[c >> 8 & 0xF];
        buffer[at++] = hex[c >> 4 & 0xF];
        buffer[at++] = hex[c & 0xF];
        return at;
    }
}
