package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Locale;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.config.ConfigurationException;

/**
 * How the repeats of one case become one score and one verdict, before any aggregate is taken.
 *
 * <p>With n counted repeats of which c passed:
 * <ul>
 * <li>{@code mean}: the mean score; the verdict is a strict majority of passes;</li>
 * <li>{@code pass@k}: 1 − C(n−c, k)/C(n, k), the unbiased chance that at least one of k draws passes; the verdict is
 * c ≥ 1;</li>
 * <li>{@code pass^k}: C(c, k)/C(n, k), the unbiased chance that all k draws pass; the verdict is c = n;</li>
 * <li>{@code majority}: 1 when c &gt; n/2, else 0 (a tie fails); the verdict is the same.</li>
 * </ul>
 * When a case has fewer counted repeats than k, k is lowered to n for that case (and a warning is given).
 *
 * @param kind the reducer
 * @param k the k of {@code pass@k} and {@code pass^k}, 1 otherwise
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record RepeatReducer(Kind kind, int k) {

    /** The reducers. */
    public enum Kind {
        /** Mean score. */
        MEAN,
        /** At least one of k passes. */
        PASS_AT_K,
        /** All of k pass. */
        PASS_HAT_K,
        /** Strict majority of passes. */
        MAJORITY
    }

    /** The default: the mean. */
    public static final RepeatReducer MEAN = new RepeatReducer(Kind.MEAN, 1);

    /** What {@link #parse} accepts, for messages. */
    public static final String ACCEPTED = "mean, majority, pass@<k> or pass^<k> with k >= 1";

    /** Checks k. */
    public RepeatReducer {
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, but was " + k);
        }
    }

    /**
     * Parses {@code mean}, {@code majority}, {@code pass@<k>} or {@code pass^<k>}.
     *
     * @throws ConfigurationException naming the accepted forms
     */
    public static RepeatReducer parse(String text) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (value.equals("mean")) {
                return MEAN;
            }
            if (value.equals("majority")) {
                return new RepeatReducer(Kind.MAJORITY, 1);
            }
            if (value.startsWith("pass@")) {
                return new RepeatReducer(Kind.PASS_AT_K, Integer.parseInt(value.substring(5)));
            }
            if (value.startsWith("pass^")) {
                return new RepeatReducer(Kind.PASS_HAT_K, Integer.parseInt(value.substring(5)));
            }
        }
        catch (IllegalArgumentException e) {
            // falls through to the message below
        }
        throw new ConfigurationException("A repeat reducer must be " + ACCEPTED + ", but was \"" + text + "\"");
    }

    /** The per-case score from n counted repeats, c of them passed, with the given mean score. */
    public double reduce(int n, int c, double meanScore) {
        switch (kind) {
            case PASS_AT_K:
                return passAtK(n, c, effectiveK(n));
            case PASS_HAT_K:
                return passHatK(n, c, effectiveK(n));
            case MAJORITY:
                return 2 * c > n ? 1.0 : 0.0;
            default:
                return meanScore;
        }
    }

    /** The per-case verdict from n counted repeats, c of them passed. */
    public boolean verdict(int n, int c) {
        switch (kind) {
            case PASS_AT_K:
                return c >= 1;
            case PASS_HAT_K:
                return c == n;
            default:
                return 2 * c > n;
        }
    }

    /** The k actually used for a case with n counted repeats. */
    public int effectiveK(int n) {
        return Math.min(k, Math.max(n, 1));
    }

    /** Whether this reducer needs k repeats. */
    boolean usesK() {
        return kind == Kind.PASS_AT_K || kind == Kind.PASS_HAT_K;
    }

    /**
     * 1 − C(n−c, k)/C(n, k) as the product Π_{i=n−c+1..n} (1 − k/i): no binomial coefficient is formed, so nothing
     * overflows (the form used by the HumanEval paper).
     */
    static double passAtK(int n, int c, int k) {
        if (n - c < k) {
            return 1.0;
        }
        double allFail = 1.0;
        for (int i = n - c + 1; i <= n; i++) {
            allFail *= 1.0 - (double) k / i;
        }
        return 1.0 - allFail;
    }

    /** C(c, k)/C(n, k) as the product Π_{j=0..k−1} (c−j)/(n−j). */
    static double passHatK(int n, int c, int k) {
        if (c < k) {
            return 0.0;
        }
        double all = 1.0;
        for (int j = 0; j < k; j++) {
            all *= (double) (c - j) / (n - j);
        }
        return all;
    }

    @Override
    public String toString() {
        switch (kind) {
            case PASS_AT_K:
                return "pass@" + k;
            case PASS_HAT_K:
                return "pass^" + k;
            case MAJORITY:
                return "majority";
            default:
                return "mean";
        }
    }
}
