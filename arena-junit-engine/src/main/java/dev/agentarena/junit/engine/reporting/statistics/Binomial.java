package dev.agentarena.junit.engine.reporting.statistics;

import java.util.SplittableRandom;

/**
 * Exact binomial variates by inversion, searching outwards from the mode: a uniform number is spent on the outcomes
 * in the order mode, mode + 1, mode − 1, mode + 2, …, each taking as much of it as its probability, so each outcome
 * comes out with exactly its probability (up to the rounding of the probabilities), after about 1.6 standard
 * deviations of steps on average: some 80 for 10,000 trials at p = ½ (800 for a million), where drawing the trials
 * one by one costs 10,000 (a million).
 *
 * <p>{@link Bootstrap} draws a resample's count of each distinct value with it (a multinomial, as successive
 * binomials), instead of drawing the resample's cases one by one.
 */
final class Binomial {

    /** Below this mean the search starts at 0: the probability of 0 is then at least e^-(mean + …), far from 0. */
    private static final double SMALL_MEAN = 30;
    private static final int EXACT_FACTORIALS = 256;
    private static final double[] LOG_FACTORIAL = new double[EXACT_FACTORIALS];
    private static final double HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

    static {
        for (int k = 2; k < EXACT_FACTORIALS; k++) {
            LOG_FACTORIAL[k] = LOG_FACTORIAL[k - 1] + Math.log(k);
        }
    }

    private Binomial() {
    }

    /** The number of successes in {@code trials} independent trials of success probability {@code p}. */
    static int draw(SplittableRandom random, int trials, double p) {
        if (trials <= 0 || p <= 0) {
            return 0;
        }
        if (p >= 1) {
            return trials;
        }
        if (p > 0.5) {
            return trials - draw(random, trials, 1 - p);
        }
        double q = 1 - p;
        double odds = p / q;
        double u = random.nextDouble();
        if (trials * p < SMALL_MEAN) {
            // from 0 upwards: P(0) = q^n, P(k + 1) = P(k) (n - k) / (k + 1) · p / q
            double f = Math.exp(trials * Math.log1p(-p));
            for (int k = 0; k < trials; k++) {
                u -= f;
                if (u < 0) {
                    return k;
                }
                f *= (trials - k) / (k + 1.0) * odds;
                if (f == 0) {
                    return k;
                }
            }
            return trials;
        }
        int mode = (int) Math.min(trials, Math.floor((trials + 1) * p));
        double atMode = Math.exp(logFactorial(trials) - logFactorial(mode) - logFactorial(trials - mode)
                + mode * Math.log(p) + (trials - mode) * Math.log1p(-p));
        u -= atMode;
        if (u < 0) {
            return mode;
        }
        int up = mode;
        int down = mode;
        double fUp = atMode;
        double fDown = atMode;
        while (true) {
            if (up < trials) {
                fUp *= (trials - up) / (up + 1.0) * odds;
                up++;
                u -= fUp;
                if (u < 0) {
                    return up;
                }
            }
            if (down > 0) {
                fDown *= down / (trials - down + 1.0) / odds;
                down--;
                u -= fDown;
                if (u < 0) {
                    return down;
                }
            }
            if ((up == trials || fUp == 0) && (down == 0 || fDown == 0)) {
                // what is left of u is rounding in the probabilities
                return mode;
            }
        }
    }

    /** ln k!: summed below 256, by Stirling's series above (its error there is below 10^-20). */
    static double logFactorial(int k) {
        if (k < EXACT_FACTORIALS) {
            return LOG_FACTORIAL[k];
        }
        double x = k;
        double inverse = 1 / x;
        double inverse2 = inverse * inverse;
        return x * Math.log(x) - x + HALF_LOG_TWO_PI + 0.5 * Math.log(x)
                + inverse * (1.0 / 12 - inverse2 * (1.0 / 360 - inverse2 / 1260));
    }
}
