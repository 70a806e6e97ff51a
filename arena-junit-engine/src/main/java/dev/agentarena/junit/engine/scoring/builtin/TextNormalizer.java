package dev.agentarena.junit.engine.scoring.builtin;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

import dev.agentarena.junit.ScorerOptionValues;

/**
 * The normalisation {@code exact_match} and {@code contains} share: Unicode NFKC, then, as the options say, case,
 * punctuation and whitespace folded away.
 */
final class TextNormalizer {

    /** Compiled once: {@code String.replaceAll} compiled them for every text, twice per case. */
    private static final Pattern PUNCTUATION = Pattern.compile("\\p{P}+");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private final boolean caseSensitive;
    private final boolean ignorePunctuation;
    private final boolean ignoreWhitespace;

    private TextNormalizer(boolean caseSensitive, boolean ignorePunctuation, boolean ignoreWhitespace) {
        this.caseSensitive = caseSensitive;
        this.ignorePunctuation = ignorePunctuation;
        this.ignoreWhitespace = ignoreWhitespace;
    }

    static TextNormalizer from(ScorerOptionValues options) {
        return new TextNormalizer(options.getBoolean("case_sensitive", false),
                options.getBoolean("ignore_punctuation", true), options.getBoolean("ignore_whitespace", true));
    }

    String normalize(String text) {
        String result = Normalizer.normalize(text == null ? "" : text, Normalizer.Form.NFKC);
        if (!caseSensitive) {
            result = result.toLowerCase(Locale.ROOT);
        }
        if (ignorePunctuation) {
            result = PUNCTUATION.matcher(result).replaceAll(" ");
        }
        if (ignoreWhitespace) {
            result = WHITESPACE.matcher(result).replaceAll(" ").strip();
        }
        return result;
    }
}
