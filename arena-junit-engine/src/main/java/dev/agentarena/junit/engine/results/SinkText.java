package dev.agentarena.junit.engine.results;

import org.apiguardian.api.API;

/**
 * Text the engine did not write (a model's output, a reason quoting it, a case id from a dataset) made harmless for
 * each place it is shown. Each sink breaks on something else: Surefire's XML on U+FFFE, U+FFFF, other non-characters,
 * unpaired surrogates and most control characters (a single one makes the whole class's report unreadable, and CI
 * reporters drop every result of the class); a terminal on ESC sequences (colours, cursor moves, hyperlinks) and C1
 * controls; the console's score lines on a CR or LF, which would let a reason print a forged
 * {@code [arena] ... status=passed} line; every reader on bidirectional overrides, which show text in an order other
 * than its own.
 *
 * <p>Names ({@link #name}) are one line with nothing of that left; messages ({@link #message}) keep their lines but
 * spell the rest out ({@code \u001B}) and indent every line after the first, so no line of theirs starts where the
 * engine's own lines do; HTML ({@link #html}) is escaped and keeps only characters a page may hold. Every result is
 * valid in an XML 1.0 document, since names and messages end in Surefire's.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SinkText {

    /** How continuation lines of a message start. */
    static final String CONTINUATION = "  ";

    private static final String HEX = "0123456789ABCDEF";

    private SinkText() {
    }

    /**
     * One line for a name: a test's display name, a field of a console line, an Allure name, label or parameter. Each
     * run of control characters and line breaks becomes one space; non-characters, unpaired surrogates and
     * bidirectional controls become U+FFFD; the result is stripped and cut with an ellipsis at {@code max} characters,
     * never inside a surrogate pair.
     */
    public static String name(String text, int max) {
        if (text == null) {
            return "";
        }
        String clean = text;
        if (!isPlain(text)) {
            StringBuilder out = new StringBuilder(text.length());
            boolean spaced = false;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                Kind kind = kind(text, i);
                if (kind == Kind.BREAK || kind == Kind.CONTROL) {
                    if (!spaced) {
                        out.append(' ');
                    }
                    spaced = true;
                    continue;
                }
                spaced = false;
                if (kind == Kind.PLAIN) {
                    out.append(c);
                    if (Character.isHighSurrogate(c)) {
                        out.append(text.charAt(++i));
                    }
                }
                else {
                    out.append('\uFFFD');
                    if (kind == Kind.NON_CHARACTER && Character.isHighSurrogate(c)) {
                        i++;
                    }
                }
            }
            clean = out.toString();
        }
        clean = clean.strip();
        if (clean.length() <= max) {
            return clean;
        }
        int end = max - 1;
        if (end > 0 && Character.isHighSurrogate(clean.charAt(end - 1))) {
            end--;
        }
        return clean.substring(0, Math.max(0, end)) + "…";
    }

    /**
     * A failure or skip message: CR LF, a lone CR, NEL and the Unicode line and paragraph separators become LF; tabs
     * stay; an unpaired surrogate becomes U+FFFD, as in {@code results.jsonl}; any other control character,
     * non-character or bidirectional control is spelled out as {@code \\uXXXX}; every line after the first is
     * indented by two spaces.
     */
    public static String message(String text) {
        if (text == null) {
            return null;
        }
        if (isPlain(text)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (kind(text, i)) {
                case PLAIN:
                    out.append(c);
                    if (Character.isHighSurrogate(c)) {
                        out.append(text.charAt(++i));
                    }
                    break;
                case BREAK:
                    if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                        i++;
                    }
                    out.append('\n').append(CONTINUATION);
                    break;
                case CONTROL:
                    if (c == '\t') {
                        out.append(c);
                    }
                    else {
                        spell(out, c);
                    }
                    break;
                case UNPAIRED_SURROGATE:
                    // as results.jsonl writes it: UTF-8 has no encoding for half a pair
                    out.append('\uFFFD');
                    break;
                default:
                    spell(out, c);
                    if (Character.isHighSurrogate(c) && i + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(i + 1))) {
                        spell(out, text.charAt(++i));
                    }
                    break;
            }
        }
        return out.toString();
    }

    /**
     * A short excerpt of a text (a model's output) to quote on one line, next to a reason: the start of the text, every
     * character a terminal, an XML report or a line reader could misread spelled out ({@code \n}, {@code \r},
     * {@code \t}, {@code \\uXXXX} for any other control character, non-character, unpaired surrogate or bidirectional
     * control), {@code \} and {@code "} escaped so that the quotes around it stay unambiguous, cut with an ellipsis at
     * {@code max} characters (never inside an escape or a surrogate pair). Unlike {@link #name}, nothing is turned into
     * a space or stripped: {@code "Paris\n"} and {@code "Paris"} are different outputs.
     */
    public static String excerpt(String text, int max) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), max) + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int mark = out.length();
            Kind kind = kind(text, i);
            boolean pair = kind == Kind.PLAIN && Character.isHighSurrogate(c);
            if (kind == Kind.PLAIN) {
                if (c == '\\' || c == '"') {
                    out.append('\\');
                }
                out.append(c);
                if (pair) {
                    out.append(text.charAt(i + 1));
                }
            }
            else {
                switch (c) {
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    default -> spell(out, c);
                }
            }
            boolean last = i + (pair ? 2 : 1) >= text.length();
            // room for the ellipsis unless this is the end of the text
            if (out.length() > (last ? max : max - 1)) {
                out.setLength(mark);
                return out.append('…').toString();
            }
            if (pair) {
                i++;
            }
        }
        return out.toString();
    }

    /**
     * Whether an error's message can be shown as it is: nothing {@link #message} would spell out, and no line after
     * the first that starts like the engine's own ({@code [arena]}). An error is rewritten only when it is not, so that
     * ordinary errors keep their type.
     */
    public static boolean isSafeMessage(String text) {
        if (text == null) {
            return true;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\t') {
                continue;
            }
            Kind kind = kind(text, i);
            if (kind != Kind.PLAIN) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                i++;
            }
        }
        return !text.contains("\n[arena]");
    }

    /**
     * Element content or a quoted attribute value of an HTML page: {@code & < > " '} escaped, tabs and line feeds
     * kept, any other control character, non-character, unpaired surrogate or bidirectional control as U+FFFD.
     */
    public static String html(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            Kind kind = kind(text, i);
            if (kind == Kind.PLAIN) {
                switch (c) {
                    case '&' -> out.append("&amp;");
                    case '<' -> out.append("&lt;");
                    case '>' -> out.append("&gt;");
                    case '"' -> out.append("&quot;");
                    case '\'' -> out.append("&#39;");
                    default -> {
                        out.append(c);
                        if (Character.isHighSurrogate(c)) {
                            out.append(text.charAt(++i));
                        }
                    }
                }
            }
            else if (c == '\n' || c == '\t') {
                out.append(c);
            }
            else {
                out.append('\uFFFD');
                if (kind == Kind.NON_CHARACTER && Character.isHighSurrogate(c)) {
                    i++;
                }
            }
        }
        return out.toString();
    }

    /** What a character does to a sink. */
    private enum Kind {
        PLAIN, BREAK, CONTROL, NON_CHARACTER, UNPAIRED_SURROGATE, BIDI
    }

    /** Whether no character of the text needs neutralising: the common case, answered without copying. */
    private static boolean isPlain(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            // Fast path for the characters almost every text is made of.
            if (c >= 0x20 && c < 0x7f) {
                continue;
            }
            if (kind(text, i) != Kind.PLAIN) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                i++;
            }
        }
        return true;
    }

    private static Kind kind(String text, int i) {
        char c = text.charAt(i);
        if (c >= 0x20 && c < 0x7f) {
            return Kind.PLAIN;
        }
        if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
            return Kind.BREAK;
        }
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
            return Kind.CONTROL;
        }
        if (c == '\u061C' || c == '\u200E' || c == '\u200F' || (c >= '\u202A' && c <= '\u202E')
                || (c >= '\u2066' && c <= '\u2069')) {
            return Kind.BIDI;
        }
        if (Character.isHighSurrogate(c)) {
            if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                int codePoint = Character.toCodePoint(c, text.charAt(i + 1));
                return (codePoint & 0xFFFE) == 0xFFFE ? Kind.NON_CHARACTER : Kind.PLAIN;
            }
            return Kind.UNPAIRED_SURROGATE;
        }
        if (Character.isLowSurrogate(c)) {
            return Kind.UNPAIRED_SURROGATE;
        }
        if ((c >= '\uFDD0' && c <= '\uFDEF') || c == '\uFFFE' || c == '\uFFFF') {
            return Kind.NON_CHARACTER;
        }
        return Kind.PLAIN;
    }

    private static void spell(StringBuilder out, char c) {
        out.append("\\u");
        for (int shift = 12; shift >= 0; shift -= 4) {
            out.append(HEX.charAt((c >> shift) & 0xF));
        }
    }

    /**
     * The text with every unpaired surrogate replaced by U+FFFD, so that it encodes as UTF-8: what the results file
     * writes of each text, and so what the report reads back of it (the same for each text of a line as for the whole
     * line, since JSON has a quote or an escape around every text).
     */
    public static String wellFormed(String text) {
        int first = 0;
        // nearly every text has no surrogate at all: one test per character finds that out
        while (first < text.length() && !Character.isSurrogate(text.charAt(first))) {
            first++;
        }
        if (first == text.length()) {
            return text;
        }
        StringBuilder fixed = null;
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean paired = Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            if (paired) {
                if (fixed != null) {
                    fixed.append(c).append(text.charAt(i + 1));
                }
                i++;
                continue;
            }
            if (Character.isSurrogate(c) && fixed == null) {
                fixed = new StringBuilder(text.length()).append(text, 0, i);
            }
            if (fixed != null) {
                fixed.append(Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return fixed == null ? text : fixed.toString();
    }
}
