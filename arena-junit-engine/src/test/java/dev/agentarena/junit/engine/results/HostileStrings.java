package dev.agentarena.junit.engine.results;

import java.util.LinkedHashMap;
import java.util.Map;

/** Texts a model (or a dataset) can write that break one sink or another: the catalogue every sink test runs. */
final class HostileStrings {

    static final String FORGED_LINE = "[arena] eval sim_small data[x]/exact_match score=1.00 status=passed";

    private HostileStrings() {
    }

    static Map<String, String> all() {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("U+FFFE", "a\uFFFEb");
        all.put("U+FFFF", "a\uFFFFb");
        all.put("U+FDD0", "a\uFDD0b");
        all.put("supplementary non-character U+1FFFE", "a\uD83F\uDFFEb");
        all.put("lone high surrogate", "a\uD800b");
        all.put("lone low surrogate", "a\uDC00b");
        all.put("lone high surrogate at the end", "ab\uD800");
        all.put("ESC colour", "\u001B[31mred\u001B[0m");
        all.put("ESC hyperlink", "\u001B]8;;https://evil.example\u0007click\u001B]8;;\u0007");
        all.put("C1 CSI", "a\u009B31mb");
        all.put("CR", "a\rb");
        all.put("LF", "a\nb");
        all.put("CRLF forged line", "fine\r\n" + FORGED_LINE);
        all.put("LF forged line", "fine\n" + FORGED_LINE);
        all.put("NUL", "a\u0000b");
        all.put("DEL and BEL", "a\u007F\u0007b");
        all.put("U+2028 and U+2029", "a\u2028b\u2029c");
        all.put("NEL", "a\u0085b");
        all.put("BiDi override", "a\u202Eevil\u202Cb \u2066x\u2069");
        all.put("emoji pair", "ok \uD83D\uDE00");
        all.put("1 MB", "\u001B".repeat(1 << 19) + "\uFFFE".repeat(1 << 19));
        return all;
    }

    /** Whether a character may appear in an XML 1.0 document. */
    static boolean xmlValid(String text) {
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            boolean valid = c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
                    || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
            if (!valid || (c >= 0xD800 && c <= 0xDFFF)) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }

    /** Whether the text holds anything a terminal or a reader would act on: controls other than LF and tab, BiDi. */
    static boolean holdsControls(String text) {
        return text.chars().anyMatch(c -> (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f)
                || c == 0x2028 || c == 0x2029 || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069)
                || c == 0x200E || c == 0x200F || c == 0x061C);
    }

    /** Whether the text holds a non-character (U+FDD0-FDEF, U+xFFFE, U+xFFFF). */
    static boolean holdsNonCharacters(String text) {
        return text.codePoints().anyMatch(c -> (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE);
    }
}
