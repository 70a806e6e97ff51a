package dev.agentarena.junit.engine.reporting.statistics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.apiguardian.api.API;

/**
 * Bradley-Terry ratings of pairwise comparisons, as Chatbot Arena reports them: model i beats model j with probability
 * {@code 1 / (1 + exp(-(θi - θj + γ·x)))}, fitted by maximum likelihood with Newton's method; the ratings are on the
 * Elo scale, {@code 1000 + 400·log10(strength)} with the strengths' geometric mean at 1 (the θ centred at 0).
 *
 * <p>An outcome is A's share of a comparison in [0, 1] (a tie is 0.5; the arena also has 0.25 and 0.75, a win and a
 * tie from the two orders), fitted as a fractional logistic regression, which counts a tie as half a win each way.
 * {@code prior} adds that many ties to every pair that was compared, so that a model that won every comparison gets a
 * finite rating (the arena uses 1; with 0 the fit is the plain maximum-likelihood estimate).
 *
 * <p>With the covariate {@code x} (the arena's length difference, see {@code docs/guides/arena.md}) the θ are
 * <em>length-controlled</em>: the ratings two answers of equal length would have, and γ says how much a longer answer
 * gains by its length alone, as AlpacaEval's length-controlled win rates do with their own covariates.
 *
 * <p>The 95% intervals are percentile bootstrap intervals: each resample redraws every pair's comparisons with
 * replacement (a multinomial draw over the pair's distinct outcomes), seeded, so a seed gives the same intervals.
 * Memory grows with the distinct (pair, covariate, outcome) cells only, never with the comparisons.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class BradleyTerry {

    private static final double RIDGE = 1e-9;

    private BradleyTerry() {
    }

    /** Aggregated comparisons of {@code models} models: count per (i, j, x, outcome) cell. */
    public static final class Data {

        private final int models;
        private final Map<Cell, double[]> cells = new LinkedHashMap<>();

        /** Data of so many models, numbered from 0. */
        public Data(int models) {
            this.models = models;
        }

        /** Adds {@code count} comparisons of i against j with covariate x where i's share was {@code share}. */
        public Data add(int i, int j, double x, double share, double count) {
            if (i == j || i < 0 || j < 0 || i >= models || j >= models) {
                throw new IllegalArgumentException("no pair of models " + i + " and " + j + " among " + models);
            }
            Cell cell = i < j ? new Cell(i, j, x, share) : new Cell(j, i, -x, 1.0 - share);
            cells.computeIfAbsent(cell, c -> new double[1])[0] += count;
            return this;
        }

        /** How many models. */
        public int models() {
            return models;
        }

        private record Cell(int i, int j, double x, double share) {
        }
    }

    /**
     * A fit: θ per model (centred at 0) and γ, {@code NaN} without the covariate.
     *
     * @param theta log-strength per model
     * @param gamma the covariate's coefficient
     */
    public record Fit(double[] theta, double gamma) {

        /** The Elo-scaled rating of each model. */
        public double[] ratings() {
            return Arrays.stream(theta).map(BradleyTerry::rating).toArray();
        }
    }

    /**
     * Ratings with their 95% bootstrap intervals.
     *
     * @param fit the point estimate
     * @param low per model, the interval's lower end
     * @param high per model, its upper end
     * @param gammaLow γ's interval, {@code NaN} without the covariate
     * @param gammaHigh γ's interval
     * @param resamples how many resamples
     */
    public record Rated(Fit fit, double[] low, double[] high, double gammaLow, double gammaHigh, int resamples) {
    }

    /** The Elo-scaled rating of a log-strength: {@code 1000 + 400·θ/ln 10}. */
    public static double rating(double theta) {
        return 1000 + 400 * theta / Math.log(10);
    }

    /** The maximum-likelihood fit, with or without the covariate, with {@code prior} ties added to each pair. */
    public static Fit fit(Data data, boolean covariate, double prior) {
        List<double[]> rows = new ArrayList<>();
        data.cells.forEach((cell, count) -> rows.add(new double[] {cell.i(), cell.j(), cell.x(), cell.share(),
                count[0]}));
        return fit(data.models, rows, covariate, prior);
    }

    /** The fit and a seeded percentile bootstrap of it. */
    public static Rated bootstrap(Data data, boolean covariate, double prior, long seed, int resamples) {
        List<double[]> rows = new ArrayList<>();
        data.cells.forEach((cell, count) -> rows.add(new double[] {cell.i(), cell.j(), cell.x(), cell.share(),
                count[0]}));
        Fit point = fit(data.models, rows, covariate, prior);
        // each pair's cells, in order
        Map<Long, List<double[]>> pairs = new LinkedHashMap<>();
        for (double[] row : rows) {
            pairs.computeIfAbsent((long) row[0] * data.models + (long) row[1], key -> new ArrayList<>()).add(row);
        }
        SplittableRandom random = new SplittableRandom(seed);
        int m = data.models;
        double[][] draws = new double[m][resamples];
        double[] gammas = new double[resamples];
        for (int b = 0; b < resamples; b++) {
            List<double[]> resampled = new ArrayList<>(rows.size());
            for (List<double[]> cells : pairs.values()) {
                long n = 0;
                for (double[] cell : cells) {
                    n += Math.round(cell[4]);
                }
                long left = n;
                double mass = 1.0;
                for (int c = 0; c < cells.size(); c++) {
                    double[] cell = cells.get(c);
                    double p = Math.round(cell[4]) / (double) n;
                    long k = c == cells.size() - 1 ? left : binomial(random, left, mass <= 0 ? 0 : Math.min(1, p / mass));
                    mass -= p;
                    left -= k;
                    if (k > 0) {
                        resampled.add(new double[] {cell[0], cell[1], cell[2], cell[3], k});
                    }
                }
            }
            Fit fit = fit(m, resampled, covariate, prior);
            for (int i = 0; i < m; i++) {
                draws[i][b] = rating(fit.theta()[i]);
            }
            gammas[b] = fit.gamma();
        }
        double[] low = new double[m];
        double[] high = new double[m];
        for (int i = 0; i < m; i++) {
            Arrays.sort(draws[i]);
            low[i] = Quantiles.of(draws[i], 0.025);
            high[i] = Quantiles.of(draws[i], 0.975);
        }
        Arrays.sort(gammas);
        return new Rated(point, low, high, covariate ? Quantiles.of(gammas, 0.025) : Double.NaN,
                covariate ? Quantiles.of(gammas, 0.975) : Double.NaN, resamples);
    }

    private static Fit fit(int m, List<double[]> observed, boolean covariate, double prior) {
        List<double[]> rows = new ArrayList<>(observed);
        if (prior > 0) {
            java.util.Set<Long> seen = new java.util.LinkedHashSet<>();
            for (double[] row : observed) {
                if (seen.add((long) row[0] * m + (long) row[1])) {
                    rows.add(new double[] {row[0], row[1], 0.0, 0.5, prior});
                }
            }
        }
        // parameters: θ1..θ(m-1) (θ0 = 0), then γ
        int k = m - 1 + (covariate ? 1 : 0);
        double[] beta = new double[k];
        if (k == 0) {
            return new Fit(new double[m], covariate ? 0.0 : Double.NaN);
        }
        double likelihood = logLikelihood(m, rows, covariate, beta);
        for (int iteration = 0; iteration < 200; iteration++) {
            double[] gradient = new double[k];
            double[][] information = new double[k][k];
            for (double[] row : rows) {
                int i = (int) row[0];
                int j = (int) row[1];
                double p = sigmoid(linear(m, row, covariate, beta));
                double w = row[4];
                double[] v = direction(m, k, i, j, row[2], covariate);
                for (int a = 0; a < k; a++) {
                    if (v[a] == 0) {
                        continue;
                    }
                    gradient[a] += w * (row[3] - p) * v[a];
                    for (int c = 0; c < k; c++) {
                        information[a][c] += w * p * (1 - p) * v[a] * v[c];
                    }
                }
            }
            for (int a = 0; a < k; a++) {
                information[a][a] += RIDGE;
            }
            double[] step = solve(information, gradient);
            double scale = 1.0;
            double[] next = new double[k];
            double nextLikelihood;
            do {
                for (int a = 0; a < k; a++) {
                    next[a] = beta[a] + scale * step[a];
                }
                nextLikelihood = logLikelihood(m, rows, covariate, next);
                scale /= 2;
            }
            while (nextLikelihood < likelihood - 1e-12 && scale > 1e-6);
            double largest = 0;
            for (int a = 0; a < k; a++) {
                largest = Math.max(largest, Math.abs(next[a] - beta[a]));
            }
            beta = next.clone();
            likelihood = nextLikelihood;
            if (largest < 1e-10) {
                break;
            }
        }
        double[] theta = new double[m];
        System.arraycopy(beta, 0, theta, 1, m - 1);
        double mean = Arrays.stream(theta).average().orElse(0);
        for (int i = 0; i < m; i++) {
            theta[i] -= mean;
        }
        return new Fit(theta, covariate ? beta[k - 1] : Double.NaN);
    }

    private static double[] direction(int m, int k, int i, int j, double x, boolean covariate) {
        double[] v = new double[k];
        if (i > 0) {
            v[i - 1] += 1;
        }
        if (j > 0) {
            v[j - 1] -= 1;
        }
        if (covariate) {
            v[k - 1] = x;
        }
        return v;
    }

    private static double linear(int m, double[] row, boolean covariate, double[] beta) {
        int i = (int) row[0];
        int j = (int) row[1];
        double d = (i > 0 ? beta[i - 1] : 0) - (j > 0 ? beta[j - 1] : 0);
        return covariate ? d + beta[beta.length - 1] * row[2] : d;
    }

    private static double logLikelihood(int m, List<double[]> rows, boolean covariate, double[] beta) {
        double sum = 0;
        for (double[] row : rows) {
            double d = linear(m, row, covariate, beta);
            // log σ(d) and log(1 - σ(d)), stable for large |d|
            double logP = -Math.log1p(Math.exp(-Math.abs(d))) + Math.min(d, 0);
            double logQ = -Math.log1p(Math.exp(-Math.abs(d))) + Math.min(-d, 0);
            sum += row[4] * (row[3] * logP + (1 - row[3]) * logQ);
        }
        return sum;
    }

    private static double sigmoid(double d) {
        return d >= 0 ? 1 / (1 + Math.exp(-d)) : Math.exp(d) / (1 + Math.exp(d));
    }

    /** Solves a symmetric positive-definite system by Gaussian elimination with partial pivoting. */
    private static double[] solve(double[][] matrix, double[] vector) {
        int n = vector.length;
        double[][] a = new double[n][];
        for (int r = 0; r < n; r++) {
            a[r] = Arrays.copyOf(matrix[r], n + 1);
            a[r][n] = vector[r];
        }
        for (int col = 0; col < n; col++) {
            int pivot = col;
            for (int r = col + 1; r < n; r++) {
                if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) {
                    pivot = r;
                }
            }
            double[] swap = a[col];
            a[col] = a[pivot];
            a[pivot] = swap;
            if (a[col][col] == 0) {
                continue;
            }
            for (int r = col + 1; r < n; r++) {
                double factor = a[r][col] / a[col][col];
                for (int c = col; c <= n; c++) {
                    a[r][c] -= factor * a[col][c];
                }
            }
        }
        double[] x = new double[n];
        for (int r = n - 1; r >= 0; r--) {
            double sum = a[r][n];
            for (int c = r + 1; c < n; c++) {
                sum -= a[r][c] * x[c];
            }
            x[r] = a[r][r] == 0 ? 0 : sum / a[r][r];
        }
        return x;
    }

    /** A binomial draw: exact for small counts, the normal approximation once the variance is at least 9. */
    static long binomial(SplittableRandom random, long n, double p) {
        if (n <= 0 || p <= 0) {
            return 0;
        }
        if (p >= 1) {
            return n;
        }
        if (p > 0.5) {
            return n - binomial(random, n, 1 - p);
        }
        if (n < 64) {
            long k = 0;
            for (long t = 0; t < n; t++) {
                if (random.nextDouble() < p) {
                    k++;
                }
            }
            return k;
        }
        double variance = n * p * (1 - p);
        if (variance >= 9) {
            long k = Math.round(n * p + Math.sqrt(variance) * random.nextGaussian());
            return Math.max(0, Math.min(n, k));
        }
        // inversion: n·p < 18 here, so (1 - p)^n does not underflow
        double u = random.nextDouble();
        double mass = Math.pow(1 - p, n);
        long k = 0;
        while (u > mass && k < n) {
            u -= mass;
            mass *= (double) (n - k) / (k + 1) * p / (1 - p);
            k++;
        }
        return k;
    }
}
