package dev.agentarena.samples.docextraction.scorers;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code currency}: grades an extracted money amount, where {@code exact_match} fails on {@code $1,200.00} versus
 * {@code 1200} versus {@code USD 1200}, which are all the same answer.
 *
 * <p>An amount is a number with optional {@code ,} thousands separators and a currency given as a symbol
 * ({@code $ € £ ¥}) or an ISO code before or after it. An amount without a currency is in option
 * {@code default_currency} (default {@code USD}). It passes when currency and amount agree, the amount within option
 * {@code tolerance} (default 0.005, half a cent). Metrics {@code currency_match} and {@code amount_match} (1 or 0) say
 * which part was wrong, as leaderboard dimensions. Not applicable without a reference; a reference with no amount is
 * an error of the case.
 *
 * <p>Found by name with no registration: it implements {@link OutputScorer} in the eval's {@code scorers} sub-package.
 */
public class CurrencyScorer implements OutputScorer {

    private static final Map<String, String> SYMBOLS = Map.of("$", "USD", "€", "EUR", "£", "GBP", "¥", "JPY");
    private static final String NUMBER = "(\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?)";
    private static final String CURRENCY = "([$€£¥]|\\b[A-Z]{3}\\b)";
    private static final Pattern BEFORE = Pattern.compile(CURRENCY + "\\s?" + NUMBER);
    private static final Pattern AFTER = Pattern.compile(NUMBER + "\\s?" + CURRENCY);
    private static final Pattern BARE = Pattern.compile("(?<![\\w.,-])" + NUMBER + "(?![\\w-]|[.,]\\d)");

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        if (reference == null) {
            return null;
        }
        String defaultCurrency = context.options().getString("default_currency", "USD").toUpperCase(Locale.ROOT);
        BigDecimal tolerance = BigDecimal.valueOf(context.options().getDouble("tolerance", 0.005));
        Money expected = Money.find(String.valueOf(reference), defaultCurrency).orElseThrow(
                () -> new IllegalArgumentException("reference '" + reference + "' holds no money amount"));
        Optional<Money> found = Money.find(output, defaultCurrency);
        if (found.isEmpty()) {
            return ScoreResult.fail("no amount found; expected " + expected).withMetric("currency_match", 0)
                    .withMetric("amount_match", 0);
        }
        Money actual = found.get();
        boolean sameCurrency = actual.currency().equals(expected.currency());
        boolean sameAmount = actual.amount().subtract(expected.amount()).abs().compareTo(tolerance) <= 0;
        boolean passed = sameCurrency && sameAmount;
        String what = passed ? "" : sameAmount ? ": right amount, wrong currency"
                : sameCurrency ? ": wrong amount" : ": wrong amount and currency";
        String reason = "found " + actual + ", expected " + expected + what;
        return ScoreResult.of(passed ? 1.0 : 0.0, passed).withReason(reason)
                .withMetric("currency_match", sameCurrency ? 1 : 0).withMetric("amount_match", sameAmount ? 1 : 0)
                .withDetail("found", actual.toString()).withDetail("expected", expected.toString());
    }

    /** An amount in a currency, e.g. {@code USD 1200.00}. */
    record Money(String currency, BigDecimal amount) {

        /** The first amount marked with a currency, else the first bare number in the default currency. */
        static Optional<Money> find(String text, String defaultCurrency) {
            Matcher before = BEFORE.matcher(text);
            Matcher after = AFTER.matcher(text);
            boolean hasBefore = before.find();
            boolean hasAfter = after.find();
            if (hasBefore && (!hasAfter || before.start() <= after.start())) {
                return Optional.of(of(before.group(1), before.group(2)));
            }
            if (hasAfter) {
                return Optional.of(of(after.group(2), after.group(1)));
            }
            Matcher bare = BARE.matcher(text);
            return bare.find() ? Optional.of(of(defaultCurrency, bare.group(1))) : Optional.empty();
        }

        private static Money of(String currency, String number) {
            return new Money(SYMBOLS.getOrDefault(currency, currency), new BigDecimal(number.replace(",", "")));
        }

        @Override
        public String toString() {
            return currency + " " + amount.setScale(Math.max(2, amount.scale()), RoundingMode.UNNECESSARY)
                    .toPlainString();
        }
    }
}
