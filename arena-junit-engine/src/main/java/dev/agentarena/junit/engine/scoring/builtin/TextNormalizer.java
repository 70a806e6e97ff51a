package dev.agentarena.junit.engine.scoring.builtin;

import java.text.Normalizer;
import java.util.Locale;

import dev.agentarena.junit.ScorerOptionValues;

/**
 * The normalisation {@code exact_match} and {@code contains} share: Unicode NFKC, then, as the options say, case,
 * punctuation and whitespace folded away.
 */
final class TextNormalizer {

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
            result = result.replaceAll("\\p{P}+", " ");
        }
        if (ignoreWhitespace) {
            result = result.replaceAll("\\s+", " ").strip();
        }
        return result;
    }
}
