package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.reporting.statistics.Wilson;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.engine.results.ScoreLine;
import dev.agentarena.junit.engine.results.ScoreSummary;

/**
 * Adds up one score's results on one model and dataset, case by case, for its summary test: in constant memory, so a
 * million cases cost no more than ten (running sums, the few lowest cases and the first errors).
 *
 * <p>A case's repeats are reduced as the leaderboard reduces them ({@code arena.repeat-reducer}), and the score is
 * the weighted mean over cases, so it is the leaderboard's accuracy of the score when the eval has one dataset. The
 * interval is Wilson's when every case scored 0 or 1 with equal weights (as in the leaderboard); otherwise the normal
 * approximation of the weighted mean, where the leaderboard bootstraps (at the sizes this mode is for, they agree).
 *
 * <p>It also counts, by status, the results its test stands for, those without a test of their own, which decide the
 * test's outcome.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ScoreTally {

    /** How many lowest cases and first errors a summary keeps. */
    static final int EXAMPLES = 5;

    private final String eval;
    private final String model;
    private final String dataset;
    private final String scorer;
    private final RepeatReducer reducer;
    private final long[] all = new long[ResultStatus.values().length];
    private final long[] stoodFor = new long[ResultStatus.values().length];
    private long cases;
    private long scored;
    private boolean binary = true;
    private double firstWeight = Double.NaN;
    private boolean uniformWeights = true;
    private double successes;
    private double sumW;
    private double sumWx;
    private double sumW2;
    private double sumW2x;
    private double sumW2x2;
    private long order;
    /** The lowest cases, the highest of them at the head (so it is the one to drop). */
    private final PriorityQueue<Example> lowest = new PriorityQueue<>(Comparator.comparingDouble(Example::score)
            .thenComparingLong(Example::order).reversed());
    private final List<String> firstErrors = new ArrayList<>();
    /** The current case's result of each repeat, up to {@link #repeats}. */
    private ResultRecord[] byRepeat = new ResultRecord[1];
    private int repeats;
    private RuntimeException reportingError;
    private long unreported;

    public ScoreTally(String eval, String model, String dataset, String scorer, RepeatReducer reducer) {
        this.eval = eval;
        this.model = model;
        this.dataset = dataset;
        this.scorer = scorer;
        this.reducer = reducer;
    }

    public String scorer() {
        return scorer;
    }

    /**
     * Adds one case: its results of this score, one per repeat (a later result of the same repeat replaces an earlier
     * one, as in the leaderboard).
     *
     * @param withoutTest which of them have no test of their own (the summary test stands for those)
     */
    public void addCase(List<ResultRecord> results, List<Boolean> withoutTest) {
        for (int k = 0; k < results.size(); k++) {
            add(results.get(k), withoutTest.get(k));
        }
        endCase();
    }

    /**
     * Adds one result of the current case, which {@link #endCase} closes: the same as handing the case's results to
     * {@link #addCase} at once, without a list per case.
     *
     * @param withoutTest whether it has no test of its own (the summary test stands for it)
     */
    public void add(ResultRecord record, boolean withoutTest) {
        int status = record.status().ordinal();
        all[status]++;
        if (withoutTest) {
            stoodFor[status]++;
        }
        int repeat = record.repeat();
        if (repeat >= byRepeat.length) {
            byRepeat = Arrays.copyOf(byRepeat, Math.max(repeat + 1, byRepeat.length * 2));
        }
        byRepeat[repeat] = record;
        repeats = Math.max(repeats, repeat + 1);
    }

    /** Closes the current case: reduces its repeats and adds it to the sums. */
    public void endCase() {
        cases++;
        int n = 0;
        int c = 0;
        double sum = 0;
        double weight = 1.0;
        ResultRecord worst = null;
        for (int r = 0; r < repeats; r++) {
            ResultRecord record = byRepeat[r];
            if (record == null) {
                continue;
            }
            byRepeat[r] = null;
            weight = Double.isFinite(record.weight()) ? record.weight() : weight;
            if (record.status() == ResultStatus.ERROR && firstErrors.size() < EXAMPLES) {
                firstErrors.add(record.caseId() + ": " + ScoreLine.sanitize(record.error() != null ? record.error()
                        : record.reason(), 200));
            }
            if (record.counts()) {
                n++;
                c += record.status() == ResultStatus.PASSED ? 1 : 0;
                sum += record.score();
                if (worst == null || record.score() < worst.score()) {
                    worst = record;
                }
            }
        }
        repeats = 0;
        if (n == 0) {
            return;
        }
        double x = reducer.reduce(n, c, sum / n);
        scored++;
        binary &= x == 0.0 || x == 1.0;
        if (Double.isNaN(firstWeight)) {
            firstWeight = weight;
        }
        uniformWeights &= weight == firstWeight;
        successes += x;
        sumW += weight;
        sumWx += weight * x;
        sumW2 += weight * weight;
        sumW2x += weight * weight * x;
        sumW2x2 += weight * weight * x * x;
        if (!reducer.verdict(n, c)) {
            keepIfLowest(x, worst);
        }
    }

    /**
     * Keeps a low case among the lowest: the queue is only touched when there is room or the case is lower than the
     * highest kept (a later case never displaces an equal earlier one), and its text is only written at the end.
     */
    private void keepIfLowest(double x, ResultRecord worst) {
        long place = order++;
        if (lowest.size() == EXAMPLES) {
            if (Double.compare(x, lowest.peek().score()) >= 0) {
                return;
            }
            lowest.poll();
        }
        lowest.add(new Example(x, place, worst.caseId(), worst.reason()));
    }

    /** A result could not be handed to the outputs (the results file, the leaderboard): the test fails with it. */
    public void reportingFailed(RuntimeException error) {
        unreported++;
        if (reportingError == null) {
            reportingError = error;
        }
    }

    /** The first error of an output, and how many results it could not take, if any. */
    public RuntimeException reportingError() {
        return reportingError == null ? null
                : new IllegalStateException(unreported + " result(s) of " + scorer + " on " + model + " ("
                        + dataset + ") could not be reported: " + reportingError.getMessage(), reportingError);
    }

    /** How many results with this status the summary test stands for. */
    public long stoodFor(ResultStatus status) {
        return stoodFor[status.ordinal()];
    }

    public ScoreSummary summary() {
        Estimate estimate = estimate();
        List<Example> examples = new ArrayList<>(lowest);
        examples.sort(Comparator.comparingDouble(Example::score).thenComparingLong(Example::order));
        List<String> lowestTexts = new ArrayList<>();
        examples.forEach(example -> lowestTexts.add(example.text()));
        return new ScoreSummary(eval, model, dataset, scorer, cases, scored, estimate.value(), estimate.low(),
                estimate.high(), estimate.method(), count(all, ResultStatus.PASSED), count(all, ResultStatus.FAILED),
            count(all, ResultStatus.ERROR), count(all, ResultStatus.NOT_APPLICABLE),
            count(all, ResultStatus.NOT_RUN), lowestTexts, firstErrors);
    }

    private Estimate estimate() {
        if (scored == 0 || sumW <= 0) {
            return Estimate.empty();
        }
        if (binary && uniformWeights && scored <= Integer.MAX_VALUE) {
            return Wilson.interval(successes, (int) scored);
        }
        double mean = sumWx / sumW;
        // variance of a weighted mean: Σ w²(x − m)² / (Σ w)²
        double variance = Math.max(0, sumW2x2 - 2 * mean * sumW2x + mean * mean * sumW2) / (sumW * sumW);
        double half = Wilson.Z * Math.sqrt(variance);
        return new Estimate(mean, Math.max(0, mean - half), Math.min(1, mean + half),
                (int) Math.min(scored, Integer.MAX_VALUE), "normal");
    }

    private static long count(long[] counts, ResultStatus status) {
        return counts[status.ordinal()];
    }

    /** A number with thousands separators, for names and messages. */
    public static String count(long number) {
        return String.format(Locale.ROOT, "%,d", number);
    }

    /** One of the lowest cases: its reduced score, its place in the dataset, and what its text is made of. */
    private record Example(double score, long order, String caseId, String reason) {

        String text() {
            return caseId + " " + ScoreLine.format(score)
                    + (reason == null || reason.isBlank() ? "" : ": " + ScoreLine.sanitize(reason, 160));
        }
    }
}
