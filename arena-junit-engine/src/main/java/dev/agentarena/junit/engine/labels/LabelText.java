package dev.agentarena.junit.engine.labels;

/**
 * How a labels file's free text (a note, a case id) is shown: a labels file is written by hand or by a tool and goes
 * into the console, {@code leaderboard.json} and the HTML, so a character a terminal or a reader would act on (a
 * control character, an escape sequence), a noncharacter or half of a surrogate pair is written as an escape, and a
 * note is cut to a size a table can show.
 */
final class LabelText {

    /** The most characters of a note the reports show. */
    static final int NOTE_LIMIT = 300;

    private LabelText() {
    }

    /** The text with control characters, U+FFFE, U+FFFF and lone surrogates written as {@code \}{@code uxxxx}. */
    static String visible(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            boolean shown = !Character.isISOControl(c) && c != '\uFFFE' && c != '\uFFFF'
                    && (!Character.isSurrogate(c) || pair);
            if (shown && out == null) {
                if (pair) {
                    i++;
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (shown) {
                out.append(c);
                if (pair) {
                    out.append(text.charAt(++i));
                }
            }
            else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return out == null ? text : out.toString();
    }

    /** A note as the reports show it: {@link #visible}, and cut to {@link #NOTE_LIMIT} characters, saying so. */
    static String note(String note) {
        String visible = visible(note);
        if (visible.length() <= NOTE_LIMIT) {
            return visible;
        }
        int end = NOTE_LIMIT;
        if (Character.isHighSurrogate(visible.charAt(end - 1))) {
            end--;
        }
        return visible.substring(0, end) + "… (" + String.format(java.util.Locale.ROOT, "%,d", note.length()) + " characters)";
    }
}
