package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.io.Writer;

/**
 * A writer that makes JSON safe to embed in an HTML page's {@code <script type="application/json">} block, whatever
 * the data holds: every character that could end the block or start markup ({@code <}, {@code >}, {@code &}), every
 * line or paragraph separator a script parser might read as a line end (U+2028, U+2029), every control character
 * (C0, DEL, C1), every surrogate (so a lone one stays well-formed UTF-8), every non-character (U+FDD0 to U+FDEF,
 * U+FFFE, U+FFFF) and every bidirectional control (U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) is written as
 * a {@code \}{@code uXXXX} escape. JSON has these characters only inside strings, where the escape means the same
 * character to {@code JSON.parse}; so {@code </script} and {@code <!--} can never appear in the block.
 */
final class EmbeddedJson extends Writer {

    private final Writer out;

    EmbeddedJson(Writer out) {
        this.out = out;
    }

    /** Whether the character is written as an escape. */
    static boolean escaped(char c) {
        return c < 0x20 || c == '<' || c == '>' || c == '&' || (c >= 0x7F && c <= 0x9F) || c == '\u2028'
                || c == '\u2029' || Character.isSurrogate(c) || (c >= '\uFDD0' && c <= '\uFDEF') || c == '\uFFFE'
                || c == '\uFFFF' || c == '\u200E' || c == '\u200F' || (c >= '\u202A' && c <= '\u202E')
                || (c >= '\u2066' && c <= '\u2069');
    }

    /** The JSON text made safe for an HTML script block (see the class comment). */
    static String escape(String json) {
        StringBuilder text = new StringBuilder(json.length() + 16);
        for (int i = 0; i < json.length(); i++) {
            append(text, json.charAt(i));
        }
        return text.toString();
    }

    private static void append(StringBuilder text, char c) {
        if (escaped(c)) {
            text.append("\\u").append(HEX.charAt((c >> 12) & 0xF)).append(HEX.charAt((c >> 8) & 0xF)).append(HEX.charAt((c >> 4) & 0xF))
                    .append(HEX.charAt(c & 0xF));
        }
        else {
            text.append(c);
        }
    }

    private static final String HEX = "0123456789abcdef";

    private final StringBuilder buffer = new StringBuilder(8192);

    @Override
    public void write(char[] chars, int offset, int length) throws IOException {
        for (int i = offset; i < offset + length; i++) {
            append(buffer, chars[i]);
        }
        if (buffer.length() >= 8192) {
            flushBuffer();
        }
    }

    @Override
    public void write(String string, int offset, int length) throws IOException {
        for (int i = offset; i < offset + length; i++) {
            append(buffer, string.charAt(i));
        }
        if (buffer.length() >= 8192) {
            flushBuffer();
        }
    }

    private void flushBuffer() throws IOException {
        out.append(buffer);
        buffer.setLength(0);
    }

    @Override
    public void flush() throws IOException {
        flushBuffer();
        out.flush();
    }

    /** Flushes; the page's writer stays open. */
    @Override
    public void close() throws IOException {
        flush();
    }
}
