package dev.agentarena.junit.engine.scoring.builtin;

import java.math.BigDecimal;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the numbers written in a text: signs (including U+2212 minus), decimals, {@code ,} thousands separators
 * ({@code 1,200.50}) and scientific notation ({@code 1.2e3}). Percent signs and currency symbols are ignored, not
 * converted; European separators ({@code 1.200,50}) are not understood. A number written with more than
 * {@value #MAX_CHARACTERS} characters is not read: no answer needs one, a model that loops on digits writes one, and
 * reading it as a decimal takes time quadratic in its length (seconds for 1 MB of digits).
 */
final class NumberExtractor {

    // Not after a letter, digit, underscore or dot, and not before ".digit", so "v2", "cust_42", versions like
    // "1.2.3" and ranges like "3-5" (whose dash is no sign) do not produce spurious or negative numbers.
    private static final Pattern NUMBER = Pattern.compile(
            "(?<![\\p{L}\\p{N}_.])[-+\u2212]?(?:\\d{1,3}(?:,\\d{3})+(?!\\d)(?:\\.\\d+)?|\\d+(?:\\.\\d+)?|\\.\\d+)"
                    + "(?:[eE][-+\u2212]?\\d{1,6}(?!\\d))?(?!\\.?\\d)");

    /** The longest number read, in characters. */
    static final int MAX_CHARACTERS = 1000;

    private NumberExtractor() {
    }

    /** Every number, in order of appearance. */
    static List<BigDecimal> all(String text) {
        List<BigDecimal> numbers = new ArrayList<>();
        // NFKC turns full-width and other compatibility digits into ASCII ones.
        Matcher matcher = NUMBER.matcher(Normalizer.normalize(text, Normalizer.Form.NFKC));
        while (matcher.find()) {
            if (matcher.end() - matcher.start() <= MAX_CHARACTERS) {
                numbers.add(parse(matcher.group()));
            }
        }
        return numbers;
    }

    /** A reference value written as text: exactly one number, possibly with currency or units around it. */
    static BigDecimal parseReference(String text) {
        List<BigDecimal> numbers = all(text);
        if (numbers.size() != 1) {
            throw new IllegalArgumentException("scorer 'numeric': the reference '" + Abbreviations.abbreviate(text, 60)
                    + "' is not a number");
        }
        return numbers.get(0);
    }

    private static BigDecimal parse(String token) {
        return new BigDecimal(token.replace(",", "").replace('\u2212', '-'));
    }
}
