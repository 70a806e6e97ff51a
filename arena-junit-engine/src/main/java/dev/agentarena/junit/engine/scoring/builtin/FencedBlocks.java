package dev.agentarena.junit.engine.scoring.builtin;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Markdown code fences in model outputs: models wrap JSON and code in them even when told not to.
 *
 * <p>A fence opens anywhere (models often write "Here you go: ```json"): a run of three or more backticks or tildes,
 * an info string without backticks, a line break. The block runs to the next line that starts, after spaces and
 * tabs, with the same run, or, unclosed (a truncated output), to the end. The scan reads each character a bounded
 * number of times: a regular expression for the same rule backtracked over every run of backticks, and took 20 s for
 * 150 KB of them.
 */
final class FencedBlocks {

    record Block(String language, String content) {
    }

    private FencedBlocks() {
    }

    static List<Block> all(String text) {
        List<Block> blocks = new ArrayList<>();
        int length = text.length();
        int i = 0;
        while (i < length) {
            char mark = text.charAt(i);
            if (mark != '`' && mark != '~') {
                i++;
                continue;
            }
            int runEnd = i;
            while (runEnd < length && text.charAt(runEnd) == mark) {
                runEnd++;
            }
            if (runEnd - i < 3) {
                i = runEnd;
                continue;
            }
            int infoEnd = runEnd;
            while (infoEnd < length && text.charAt(infoEnd) != '\n' && text.charAt(infoEnd) != '`') {
                infoEnd++;
            }
            if (infoEnd == length || text.charAt(infoEnd) != '\n') {
                // No fence opens at any position from here to the backtick that ended the info string: each would
                // read the same info string up to the same backtick.
                i = infoEnd;
                continue;
            }
            String fence = text.substring(i, runEnd);
            int contentStart = infoEnd + 1;
            int contentEnd = length;
            int next = length;
            int newline = text.indexOf('\n', contentStart);
            while (newline >= 0) {
                int indent = newline + 1;
                while (indent < length && (text.charAt(indent) == ' ' || text.charAt(indent) == '\t')) {
                    indent++;
                }
                if (text.startsWith(fence, indent)) {
                    contentEnd = newline;
                    next = indent + fence.length();
                    break;
                }
                newline = text.indexOf('\n', Math.max(newline + 1, indent));
            }
            String info = text.substring(runEnd, infoEnd).strip();
            blocks.add(new Block(language(info), text.substring(contentStart, contentEnd)));
            i = next;
        }
        return blocks;
    }

    /** The info string's first word, lower case: {@code "JSON title=x"} is {@code json}. */
    private static String language(String info) {
        int end = 0;
        while (end < info.length() && " \t\n\u000B\f\r".indexOf(info.charAt(end)) < 0) {
            end++;
        }
        return info.substring(0, end).toLowerCase(Locale.ROOT);
    }

    /**
     * The first block tagged with one of the languages, else the first untagged block, else the first block of any
     * language.
     */
    static Optional<String> preferred(String text, Set<String> languages) {
        List<Block> blocks = all(text);
        return blocks.stream().filter(b -> languages.contains(b.language())).findFirst()
                .or(() -> blocks.stream().filter(b -> b.language().isEmpty()).findFirst())
                .or(() -> blocks.stream().findFirst())
                .map(Block::content);
    }
}
