package dev.agentarena.junit.engine.reporting.statistics;

import java.util.Arrays;

import org.apiguardian.api.API;

/**
 * A paired comparison of two sets of per-case scores on the case ids they share: candidate minus reference.
 *
 * <p>Two tests are computed. The paired bootstrap resamples the shared cases with replacement and takes the mean
 * difference each time; its two-sided p-value is {@code min(1, 2 (1 + m) / (B + 1))}, m being the number of resampled
 * means on the far side of zero (≤ 0 for a positive difference, ≥ 0 for a negative one). The exact McNemar test
 * uses only the discordant verdicts: b = candidate passed and reference failed, c = the reverse. When every shared
 * score is 0 or 1 McNemar is the {@link #test()} that decides, otherwise the bootstrap does. Every case counts once:
 * case weights change accuracy, not this test.
 *
 * @param n shared cases
 * @param meanDifference mean of candidate − reference over shared cases
 * @param low lower bound of the 95% bootstrap interval of the difference
 * @param high upper bound
 * @param bootstrapP the bootstrap p-value
 * @param b discordant pairs where only the candidate passed
 * @param c discordant pairs where only the reference passed
 * @param mcnemarP the exact McNemar p-value
 * @param test {@code mcnemar} or {@code bootstrap}: whose p-value decides
 * @param p the deciding p-value
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record PairedTest(int n, double meanDifference, double low, double high, double bootstrapP, int b, int c,
        double mcnemarP, String test, double p) {

    /** Test name: exact McNemar. */
    public static final String MCNEMAR = "mcnemar";

    /** The significance level of every paired test: 5%. */
    public static final double ALPHA = 0.05;
    /** Test name: paired bootstrap. */
    public static final String BOOTSTRAP = "bootstrap";

    /** Whether the difference is significant at {@link #ALPHA}. */
    public boolean significant() {
        return n > 0 && p < ALPHA;
    }

    /**
     * Compares candidate with reference on their shared case ids.
     *
     * @param label names the comparison; with the seed it fixes the bootstrap's generator
     */
    public static PairedTest compare(CaseScores candidate, CaseScores reference, long seed, String label,
            int resamples) {
        int max = Math.min(candidate.size(), reference.size());
        double[] diffs = new double[max];
        int n = 0;
        int b = 0;
        int c = 0;
        boolean binary = true;
        int i = 0;
        int j = 0;
        while (i < candidate.size() && j < reference.size()) {
            int order = candidate.compareIds(i, reference, j);
            if (order < 0) {
                i++;
            }
            else if (order > 0) {
                j++;
            }
            else {
                double x = candidate.score(i);
                double y = reference.score(j);
                binary &= (x == 0.0 || x == 1.0) && (y == 0.0 || y == 1.0);
                diffs[n++] = x - y;
                if (candidate.passed(i) && !reference.passed(j)) {
                    b++;
                }
                else if (!candidate.passed(i) && reference.passed(j)) {
                    c++;
                }
                i++;
                j++;
            }
        }
        if (n == 0) {
            return new PairedTest(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, 0, Double.NaN, BOOTSTRAP,
                    Double.NaN);
        }
        double[] shared = Arrays.copyOf(diffs, n);
        double mean = Bootstrap.weightedMean(shared, null, null);
        double low = mean;
        double high = mean;
        double bootstrapP = 1.0;
        if (n > 1 && resamples > 0) {
            double[] means = Bootstrap.resampledMeans(shared, null, Bootstrap.seed(seed, label), resamples);
            int atOrBelow = 0;
            int atOrAbove = 0;
            for (double m : means) {
                atOrBelow += m <= 0 ? 1 : 0;
                atOrAbove += m >= 0 ? 1 : 0;
            }
            Arrays.sort(means);
            low = Quantiles.of(means, 0.025);
            high = Quantiles.of(means, 0.975);
            bootstrapP = Math.min(1.0, 2.0 * (1 + Math.min(atOrBelow, atOrAbove)) / (resamples + 1));
        }
        double mcnemarP = McNemar.exactP(b, c);
        String test = binary ? MCNEMAR : BOOTSTRAP;
        return new PairedTest(n, mean, low, high, bootstrapP, b, c, mcnemarP, test,
                binary ? mcnemarP : bootstrapP);
    }
}
