package dev.agentarena.junit.engine.results;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apiguardian.api.API;

/**
 * Fixed-point text of a number exactly as {@code String.format(Locale.ROOT, "%.<n>f", value)} writes it, without its
 * cost: every test's display name, score line and report entries carry a few such numbers, and {@code Formatter}
 * parses its pattern and looks up the locale's symbols on every call.
 *
 * <p>{@code Formatter} rounds the decimal digits of the double half up. Away from a tie that is the double rounded to
 * the nearest multiple of 10<sup>−n</sup>, which is computed here with integer arithmetic; a value within a hair of a
 * tie, a large one, NaN or an infinity goes to {@code Formatter} itself, so the text is always the same. Ties are
 * common (a price of half a micro-dollar per token puts every other cost on one), and a run's costs and scores take
 * few distinct values, so what {@code Formatter} wrote is remembered, up to {@value #MEMO_SIZE} values.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Decimals {

    private static final double[] POWERS = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    private static final String[] PATTERNS = {"%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f", "%.7f", "%.8f",
        "%.9f"};

    // |value| × 10^n below this is an exact integer part with room for the rounding error of the product
    private static final double FAST_LIMIT = 1e12;
    // how far from a tie the scaled value must be for nearest rounding to agree with Formatter's half-up
    private static final double TIE_MARGIN = 1e-3;

    static final int MEMO_SIZE = 4096;

    // one per number of decimals, and the last for Double.toString
    @SuppressWarnings("unchecked")
    private static final Map<Long, String>[] MEMO = new Map[POWERS.length + 1];
    private static final int SHORTEST = POWERS.length;

    static {
        for (int i = 0; i < MEMO.length; i++) {
            MEMO[i] = new ConcurrentHashMap<>();
        }
    }

    private Decimals() {
    }

    /**
     * The value with {@code decimals} digits after the point, as {@code String.format(Locale.ROOT, "%.<decimals>f")}.
     *
     * @param decimals from 0 to 9
     */
    public static String fixed(double value, int decimals) {
        StringBuilder text = new StringBuilder(24);
        appendFixed(text, value, decimals);
        return text.toString();
    }

    /** Appends the value as {@link #fixed}; returns {@code text}. */
    public static StringBuilder appendFixed(StringBuilder text, double value, int decimals) {
        if (decimals < 0 || decimals >= POWERS.length) {
            throw new IllegalArgumentException("decimals must be from 0 to 9: " + decimals);
        }
        double scaled = Math.abs(value) * POWERS[decimals];
        if (!(scaled < FAST_LIMIT)) {
            // NaN, infinities and large values
            return text.append(formatted(value, decimals));
        }
        double floor = Math.floor(scaled);
        double fraction = scaled - floor;
        if (Math.abs(fraction - 0.5) < TIE_MARGIN) {
            return text.append(formatted(value, decimals));
        }
        long units = (long) floor + (fraction > 0.5 ? 1 : 0);
        // Formatter keeps the sign of a negative value that rounds to zero, and of -0.0
        if (value < 0 || (value == 0 && Double.doubleToRawLongBits(value) != 0)) {
            text.append('-');
        }
        if (decimals == 0) {
            return text.append(units);
        }
        long unit = (long) POWERS[decimals];
        text.append(units / unit).append('.');
        String digits = Long.toString(units % unit);
        for (int pad = decimals - digits.length(); pad > 0; pad--) {
            text.append('0');
        }
        return text.append(digits);
    }

    /**
     * {@link Double#toString(double)}, remembered: what Jackson writes of a double in {@code results.jsonl}, where a
     * run's scores, costs and weights take few distinct values.
     */
    public static String shortest(double value) {
        return remembered(value, SHORTEST);
    }

    /** What {@code Formatter} writes, remembered. */
    private static String formatted(double value, int decimals) {
        return remembered(value, decimals);
    }

    private static String remembered(double value, int format) {
        Map<Long, String> memo = MEMO[format];
        Long key = Double.doubleToRawLongBits(value);
        String text = memo.get(key);
        if (text == null) {
            text = format == SHORTEST ? Double.toString(value) : String.format(Locale.ROOT, PATTERNS[format], value);
            if (memo.size() >= MEMO_SIZE) {
                memo.clear();
            }
            memo.put(key, text);
        }
        return text;
    }
}
