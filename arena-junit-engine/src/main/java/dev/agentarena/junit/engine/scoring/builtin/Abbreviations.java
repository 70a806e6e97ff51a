package dev.agentarena.junit.engine.scoring.builtin;

/** Keeps reasons readable when outputs are huge. */
final class Abbreviations {

    private static final int MAX = 200;

    private Abbreviations() {
    }

    static String abbreviate(String text) {
        return abbreviate(text, MAX);
    }

    static String abbreviate(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = max - 1;
        // Never cut a surrogate pair in half: the reason would carry a broken character.
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + "…";
    }

    /** The end of a text, where tracebacks put the exception. */
    static String tail(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int start = text.length() - max + 1;
        if (Character.isLowSurrogate(text.charAt(start))) {
            start++;
        }
        return "…" + text.substring(start);
    }
}
