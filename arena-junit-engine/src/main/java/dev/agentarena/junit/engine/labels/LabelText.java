package dev.agentarena.junit.engine.labels;

import java.util.Locale;

import dev.agentarena.junit.engine.results.SinkText;

/**
 * How a labels file's free text (a note, a case id) is shown: a labels file is written by hand or by another tool and
 * goes into the console, {@code leaderboard.json} and the HTML, so what a terminal, a page or a line reader would act
 * on (a control character, an escape sequence, a bidirectional override, a non-character, half of a surrogate pair)
 * is spelled out as {@link SinkText#excerpt} spells a model's output, and a note is cut to a size a table can show.
 */
final class LabelText {

    /** The most characters of a note the reports show. */
    static final int NOTE_LIMIT = 300;

    private LabelText() {
    }

    /** The text, every character a reader could misread spelled out ({@code \}{@code u001B}, {@code \"}). */
    static String visible(String text) {
        return SinkText.excerpt(text, Integer.MAX_VALUE);
    }

    /** A note as the reports show it: {@link #visible}, cut to {@link #NOTE_LIMIT} characters saying how long it was. */
    static String note(String note) {
        String shown = SinkText.excerpt(note, NOTE_LIMIT);
        if (shown.endsWith("…") && !shown.equals(visible(note))) {
            return shown + " (" + String.format(Locale.ROOT, "%,d", note.length()) + " characters)";
        }
        return shown;
    }
}
