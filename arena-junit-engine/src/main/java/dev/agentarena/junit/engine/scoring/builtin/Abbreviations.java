package dev.agentarena.junit.engine.scoring.builtin;

/** Keeps reasons readable when outputs are huge. */
final class Abbreviations {

    private static final int MAX = 200;

    private Abbreviations() {
    }

    static String abbreviate(String text) {
        return text.length() <= MAX ? text : text.substring(0, MAX - 1) + "…";
    }
}
