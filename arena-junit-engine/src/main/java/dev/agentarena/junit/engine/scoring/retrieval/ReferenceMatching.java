package dev.agentarena.junit.engine.scoring.retrieval;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one rule by which a retrieved passage is relevant to a reference passage given as text: after both are folded
 * alike ({@link #fold}), one contains the other. A text that folds to nothing matches nothing.
 *
 * <p>Containment is found with Knuth-Morris-Pratt, in time linear in the two lengths, so megabyte texts cost
 * milliseconds however they repeat themselves (a plain search can take the product of the lengths).
 */
final class ReferenceMatching {

    /** Format characters (zero-width spaces and joiners, bidi marks, byte order marks): invisible, dropped. */
    private static final Pattern INVISIBLE = Pattern.compile("\\p{Cf}+");
    private static final Pattern WHITESPACE = Pattern.compile("[\\s\\p{Z}]+", Pattern.UNICODE_CHARACTER_CLASS);

    private ReferenceMatching() {
    }

    /**
     * The text as it is compared: Unicode NFKC, invisible format characters dropped, case folded (upper then lower
     * case, in the root locale, so {@code ß} and {@code SS} fold alike), every run of whitespace one space, no space
     * at either end.
     */
    static String fold(String text) {
        String normal = Normalizer.normalize(text, Normalizer.Form.NFKC);
        normal = INVISIBLE.matcher(normal).replaceAll("");
        normal = normal.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
        return WHITESPACE.matcher(normal).replaceAll(" ").strip();
    }

    /** Whether two folded texts match: neither empty, and the longer contains the shorter. */
    static boolean matches(String foldedA, String foldedB) {
        if (foldedA.isEmpty() || foldedB.isEmpty()) {
            return false;
        }
        return foldedA.length() >= foldedB.length() ? contains(foldedA, foldedB) : contains(foldedB, foldedA);
    }

    /** Whether the pattern occurs in the text (Knuth-Morris-Pratt). */
    static boolean contains(String text, String pattern) {
        int[] border = new int[pattern.length()];
        for (int i = 1, length = 0; i < pattern.length(); i++) {
            while (length > 0 && pattern.charAt(i) != pattern.charAt(length)) {
                length = border[length - 1];
            }
            if (pattern.charAt(i) == pattern.charAt(length)) {
                length++;
            }
            border[i] = length;
        }
        for (int i = 0, matched = 0; i < text.length(); i++) {
            while (matched > 0 && text.charAt(i) != pattern.charAt(matched)) {
                matched = border[matched - 1];
            }
            if (text.charAt(i) == pattern.charAt(matched)) {
                matched++;
            }
            if (matched == pattern.length()) {
                return true;
            }
        }
        return false;
    }
}
