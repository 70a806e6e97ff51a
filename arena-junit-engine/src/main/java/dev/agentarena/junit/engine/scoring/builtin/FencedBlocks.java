package dev.agentarena.junit.engine.scoring.builtin;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Markdown code fences in model outputs: models wrap JSON and code in them even when told not to. */
final class FencedBlocks {

    // An opening fence anywhere (models often write "Here you go: ```json"), its info string, then the content up to
    // the same fence. An unclosed fence (a truncated output) runs to the end.
    private static final Pattern FENCE = Pattern.compile("(`{3,}|~{3,})([^\\n`]*)\\n(.*?)(?:\\n[ \\t]*\\1|\\z)",
            Pattern.DOTALL);

    record Block(String language, String content) {
    }

    private FencedBlocks() {
    }

    static List<Block> all(String text) {
        List<Block> blocks = new ArrayList<>();
        Matcher matcher = FENCE.matcher(text);
        while (matcher.find()) {
            String info = matcher.group(2).strip();
            String language = info.isEmpty() ? "" : info.split("\\s+")[0].toLowerCase(Locale.ROOT);
            blocks.add(new Block(language, matcher.group(3)));
        }
        return blocks;
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
