package dev.agentarena.junit.engine.models;

import java.util.List;

import org.apiguardian.api.API;

/**
 * The tagged blocks in which a prompt hands a model text that someone else wrote ({@code <answer>...</answer>}: a
 * judged output, a simulated user's goal, the agent's reply), and the escaping that keeps that text from closing its
 * block or opening another. One rule for every prompt that carries untrusted text as data: the judge's, the pairwise
 * judge's and the simulated user's.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class PromptBlocks {

    private final List<String> tags;

    /** The blocks of a prompt, by their tag names; a longer name that starts with a shorter one comes first. */
    public PromptBlocks(String... tags) {
        this.tags = List.of(tags);
    }

    /** The value in its block: {@code <tag>}, a line break, the value escaped, a line break, {@code </tag>}. */
    public String tagged(String tag, String value) {
        return "<" + tag + ">\n" + escape(value == null ? "" : value) + "\n</" + tag + ">";
    }

    /**
     * Stops content from closing its block (or opening another) by spelling its tags as entities: {@code <answer>},
     * {@code </ Answer >} and the like, with any whitespace ({@code \\s}) around the slash and the name, become
     * {@code &lt;answer&gt;}. Scanned once: the regular expression {@code <\\s*(/?)\\s*(question|...)\\s*>} tried
     * every split of a run of spaces between its two {@code \\s*}, quadratic in an answer of {@code <} and spaces.
     */
    public String escape(String text) {
        StringBuilder escaped = null;
        int copied = 0;
        int open = text.indexOf('<');
        while (open >= 0) {
            int i = skipSpace(text, open + 1);
            boolean slash = i < text.length() && text.charAt(i) == '/';
            if (slash) {
                i = skipSpace(text, i + 1);
            }
            int next = open + 1;
            for (String tag : tags) {
                if (text.regionMatches(true, i, tag, 0, tag.length())) {
                    int close = skipSpace(text, i + tag.length());
                    if (close < text.length() && text.charAt(close) == '>') {
                        if (escaped == null) {
                            escaped = new StringBuilder(text.length() + 16);
                        }
                        escaped.append(text, copied, open).append("&lt;").append(slash ? "/" : "")
                                .append(text, i, i + tag.length()).append("&gt;");
                        copied = close + 1;
                        next = close + 1;
                    }
                    break;
                }
            }
            open = text.indexOf('<', next);
        }
        return escaped == null ? text : escaped.append(text, copied, text.length()).toString();
    }

    /** Past the characters {@code \\s} matches: space, tab, line feed, vertical tab, form feed, carriage return. */
    private static int skipSpace(String text, int from) {
        int i = from;
        while (i < text.length() && " \t\n\u000B\f\r".indexOf(text.charAt(i)) >= 0) {
            i++;
        }
        return i;
    }
}
