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

    /** An escape being written: backslash, u, four hex digits. */
    private final char[] escape = {'\\', 'u', '0', '0', '0', '0'};

    /**
     * Whether the character is escaped, with the printable ASCII characters (nearly all of the data) decided by
     * one comparison pair.
     */
    private static boolean escapedFast(char c) {
        return c >= 0x20 && c < 0x7F ? c == '<' || c == '>' || c == '&' : escaped(c);
    }

    /** Writes the runs of characters that need no escape straight through, each escape in between. */
    @Override
    public void write(char[] chars, int offset, int length) throws IOException {
        int end = offset + length;
        int run = offset;
        for (int i = offset; i < end; i++) {
            char c = chars[i];
            if (escapedFast(c)) {
                if (i > run) {
                    out.write(chars, run, i - run);
                }
                writeEscape(c);
                run = i + 1;
            }
        }
        if (end > run) {
            out.write(chars, run, end - run);
        }
    }

    @Override
    public void write(String string, int offset, int length) throws IOException {
        int end = offset + length;
        int run = offset;
        for (int i = offset; i < end; i++) {
            char c = string.charAt(i);
            if (escapedFast(c)) {
                if (i > run) {
                    out.write(string, run, i - run);
                }
                writeEscape(c);
                run = i + 1;
            }
        }
        if (end > run) {
            out.write(string, run, end - run);
        }
    }

    private void writeEscape(char c) throws IOException {
        escape[2] = HEX.charAt((c >> 12) & 0xF);
        escape[3] = HEX.charAt((c >> 8) & 0xF);
        escape[4] = HEX.charAt((c >> 4) & 0xF);
        escape[5] = HEX.charAt(c & 0xF);
        out.write(escape, 0, 6);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** Flushes; the page's writer stays open. */
    @Override
    public void close() throws IOException {
        flush();
    }
}
