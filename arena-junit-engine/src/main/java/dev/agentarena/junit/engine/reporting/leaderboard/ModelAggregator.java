package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.agentarena.junit.engine.reporting.statistics.Bootstrap;
import dev.agentarena.junit.engine.reporting.statistics.CaseScores;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.reporting.statistics.Quantiles;
import dev.agentarena.junit.engine.reporting.statistics.Wilson;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * Turns one model's cell into its aggregates, before ranking. Cases are visited in ascending order of their ids, so
 * neither arrival order nor the cell's numbering changes a figure; per-case values are kept in arrays indexed by the
 * case's number, never in a map per case.
 */
final class ModelAggregator {

    private final String eval;
    private final String model;
    private final ModelCell cell;
    private final LeaderboardSettings settings;
    private final List<String> warnings;
    /** The case numbers in ascending order of their ids. */
    private final int[] order;

    ModelAggregator(String eval, String model, ModelCell cell, LeaderboardSettings settings, List<String> warnings) {
        this.eval = eval;
        this.model = model;
        this.cell = cell;
        this.settings = settings;
        this.warnings = warnings;
        this.order = cell.cases.sorted();
    }

    /** The unranked entry: rank 0, composite NaN, no comparison. */
    ModelEntry aggregate() {
        List<ScorerEntry> scorers = new ArrayList<>();
        List<int[]> scorerCases = new ArrayList<>();
        for (Map.Entry<String, ScorerCell> scorer : cell.scorers.entrySet()) {
            scorers.add(scorer(scorer.getKey(), scorer.getValue(), scorerCases));
        }
        String label = eval + "|" + model;
        CaseScores cases;
        Estimate accuracy;
        Estimate passRate;
        if (scorers.size() == 1) {
            // one scorer: each of its cases is the model's, with its score (the mean of one score, s / 1 == s) and
            // verdict, in the same order; a Wilson interval reads no label, a bootstrap's seed does
            ScorerEntry only = scorers.get(0);
            cases = only.cases();
            accuracy = Estimate.WILSON.equals(only.accuracy().method()) ? only.accuracy() : accuracy(cases, label);
            passRate = only.passRate();
        }
        else {
            cases = modelCases(scorers, scorerCases);
            accuracy = accuracy(cases, label);
            passRate = passRate(cases);
        }
        Map<String, Estimate> metrics = metrics(cell.scorers.values(), label);

        int calls = 0;
        int callErrors = 0;
        int notRun = 0;
        double cost = 0;
        long tokensIn = 0;
        long tokensOut = 0;
        long tokensCached = 0;
        double[] latencies = new double[16];
        double[] queues = new double[16];
        int latencyCount = 0;
        boolean queued = false;
        // the called cases' costs, kept only once one differs from the first: a recorded run's all cost the same
        double[] caseCosts = null;
        double firstCost = 0;
        int calledCases = 0;
        CaseCalls call = cell.calls;
        for (int i : order) {
            boolean called = false;
            double caseCost = 0;
            for (int r = 0; r < call.repeats(); r++) {
                if (call.has(i, r, CaseCalls.CALLED)) {
                    called = true;
                    calls++;
                    caseCost += call.cost(i, r);
                    tokensIn += call.tokensIn(i, r);
                    tokensOut += call.tokensOut(i, r);
                    tokensCached += call.tokensCached(i, r);
                    callErrors += call.has(i, r, CaseCalls.CALL_FAILED) ? 1 : 0;
                    if (call.latency(i, r) >= 0) {
                        if (latencyCount == latencies.length) {
                            latencies = Arrays.copyOf(latencies, latencyCount * 2);
                            queues = Arrays.copyOf(queues, latencyCount * 2);
                        }
                        queues[latencyCount] = call.queue(i, r);
                        queued |= queues[latencyCount] > 0;
                        latencies[latencyCount++] = call.latency(i, r);
                    }
                }
                else if (call.has(i, r, CaseCalls.NOT_RUN)) {
                    notRun++;
                }
            }
            if (called) {
                cost += caseCost;
                if (calledCases == 0) {
                    firstCost = caseCost;
                }
                else if (caseCosts == null && caseCost != firstCost) {
                    caseCosts = new double[order.length];
                    Arrays.fill(caseCosts, 0, calledCases, firstCost);
                }
                if (caseCosts != null) {
                    caseCosts[calledCases] = caseCost;
                }
                calledCases++;
            }
        }
        Estimate costPerCase;
        if (caseCosts == null && calledCases > 0 && Double.isFinite(firstCost)) {
            costPerCase = sameCostPerCase(cost, calledCases);
        }
        else {
            double[] costs = new double[calledCases];
            if (caseCosts != null) {
                System.arraycopy(caseCosts, 0, costs, 0, calledCases);
            }
            else {
                Arrays.fill(costs, firstCost);
            }
            costPerCase = Bootstrap.mean(costs, null, settings.seed(), "cost|" + label, settings.resamples());
        }
        double tokensPerCase = calledCases == 0 ? Double.NaN : (double) (tokensIn + tokensOut) / calledCases;
        double[] sortedLatencies = Arrays.copyOf(latencies, latencyCount);
        Arrays.sort(sortedLatencies);
        double[] sortedQueues = queued ? Arrays.copyOf(queues, latencyCount) : new double[0];
        Arrays.sort(sortedQueues);
        int errors = scorers.stream().mapToInt(ScorerEntry::errors).sum();
        int scorerErrors = scorers.stream().mapToInt(ScorerEntry::scorerErrors).sum();
        return new ModelEntry(model, 0, Double.NaN, Map.of(), accuracy, passRate, cases.size(), errors, callErrors,
                scorerErrors, notRun, calls, cost, costPerCase, tokensIn, tokensOut, tokensCached,
                tokensPerCase, Quantiles.of(sortedLatencies, 0.5), Quantiles.of(sortedLatencies, 0.95), sortedLatencies.length,
                Quantiles.of(sortedQueues, 0.5), Quantiles.of(sortedQueues, 0.95), metrics, false, null, scorers, cases);
    }

    /**
     * The bootstrap of the cost per case when every called case cost the same: each resample's mean is the mean of
     * the costs (Bootstrap draws none for equal values), so the interval is that mean at both ends. The mean is their
     * sum over their count, summed in case order as {@link Bootstrap#weightedMean} sums them: the same double.
     */
    private static Estimate sameCostPerCase(double sum, int cases) {
        double mean = sum / cases;
        return new Estimate(mean, mean, mean, cases, Estimate.BOOTSTRAP);
    }

    /**
     * The scorer's entry, in one pass over its cases' repeats.
     *
     * @param scorerCases receives the numbers of the entry's {@link ScorerEntry#cases()}, in the same order: the cases
     *     with at least one counted repeat
     */
    private ScorerEntry scorer(String name, ScorerCell scorer, List<int[]> scorerCases) {
        if (scorer.versions.size() > 1) {
            warnings.add(model + " / " + name + " was scored by several scorer versions (" + String.join(", ",
                    scorer.versions) + "); its results mix definitions");
        }
        CaseRuns runs = scorer.runs;
        int repeats = runs.repeats();
        int size = order.length;
        int[] numbers = new int[size];
        double[] scores = new double[size];
        boolean[] passed = new boolean[size];
        double[] weights = new double[size];
        List<FlakyCase> flaky = new ArrayList<>();
        int results = 0;
        int errors = 0;
        int callErrors = 0;
        int notApplicable = 0;
        int notRun = 0;
        int loweredK = 0;
        RepeatReducer reducer = settings.reducer();
        int next = 0;
        // what accuracy and pass rate read of the cases, taken as they are filled in rather than in passes of their own
        boolean binary = true;
        boolean uniformWeights = true;
        double successes = 0;
        int passes = 0;
        for (int i : order) {
            int n = 0;
            int c = 0;
            double sum = 0;
            double sumSquares = 0;
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (int r = 0; r < repeats; r++) {
                byte state = runs.state(i, r);
                if (state == 0) {
                    continue;
                }
                results++;
                ResultStatus status = CaseRuns.status(state);
                switch (status) {
                    case ERROR -> errors++;
                    case NOT_APPLICABLE -> notApplicable++;
                    case NOT_RUN -> notRun++;
                    default -> {
                    }
                }
                callErrors += CaseRuns.callFailed(state) ? 1 : 0;
                if (status.counts()) {
                    double score = runs.score(i, r);
                    n++;
                    c += status == ResultStatus.PASSED ? 1 : 0;
                    sum += score;
                    sumSquares += score * score;
                    min = Math.min(min, score);
                    max = Math.max(max, score);
                }
            }
            if (n == 0) {
                continue;
            }
            if (reducer.usesK() && n < reducer.k()) {
                loweredK++;
            }
            double mean = sum / n;
            double reduced = reducer.reduce(n, c, mean);
            boolean verdict = reducer.verdict(n, c);
            double weight = cell.weight(i);
            numbers[next] = i;
            scores[next] = reduced;
            passed[next] = verdict;
            weights[next] = weight;
            binary &= reduced == 0.0 || reduced == 1.0;
            uniformWeights &= weight == weights[0];
            successes += reduced;
            passes += verdict ? 1 : 0;
            next++;
            if (n > 1 && ((c > 0 && c < n) || max > min)) {
                double variance = Math.max(0, sumSquares / n - mean * mean);
                flaky.add(new FlakyCase(cell.cases.id(i), c, n, min, max, Math.sqrt(variance)));
            }
        }
        if (loweredK > 0) {
            warnings.add(model + " / " + name + ": " + loweredK + " case(s) had fewer than " + reducer.k()
                    + " counted repeats; " + reducer + " used k = n for them");
        }
        int[] counted = next == size ? numbers : Arrays.copyOf(numbers, next);
        scorerCases.add(counted);
        CaseScores cases = next == size ? CaseScores.adopt(cell.cases.ids(counted), scores, passed, weights)
                : CaseScores.adopt(cell.cases.ids(counted), Arrays.copyOf(scores, next), Arrays.copyOf(passed, next),
                        Arrays.copyOf(weights, next));
        String label = eval + "|" + model + "|" + name;
        Estimate accuracy = next > 0 && binary && uniformWeights ? Wilson.interval(successes, next)
                : accuracy(cases, label);
        return new ScorerEntry(name, String.join(",", scorer.versions), scorer.registryName, accuracy,
                Wilson.interval(passes, next), results, errors, callErrors, errors - callErrors, notApplicable, notRun,
                metrics(List.of(scorer), label), flaky, cases);
    }

    /**
     * A case's model-level score is the mean of its counted scorers; it passes when they all passed.
     *
     * @param scorerCases per scorer, the case numbers of its {@link ScorerEntry#cases()}, in the same order
     */
    private CaseScores modelCases(List<ScorerEntry> scorers, List<int[]> scorerCases) {
        int size = cell.cases.size();
        double[] sums = new double[size];
        int[] counts = new int[size];
        boolean[] failed = new boolean[size];
        for (int s = 0; s < scorers.size(); s++) {
            CaseScores cases = scorers.get(s).cases();
            int[] numbers = scorerCases.get(s);
            for (int j = 0; j < cases.size(); j++) {
                int i = numbers[j];
                sums[i] += cases.score(j);
                counts[i]++;
                failed[i] |= !cases.passed(j);
            }
        }
        int n = 0;
        for (int i : order) {
            n += counts[i] > 0 ? 1 : 0;
        }
        int[] numbers = new int[n];
        double[] scores = new double[n];
        boolean[] passed = new boolean[n];
        double[] weights = new double[n];
        int next = 0;
        for (int i : order) {
            if (counts[i] > 0) {
                numbers[next] = i;
                scores[next] = sums[i] / counts[i];
                passed[next] = !failed[i];
                weights[next] = cell.weight(i);
                next++;
            }
        }
        return CaseScores.adopt(cell.cases.ids(numbers), scores, passed, weights);
    }

    /** Wilson when every score is 0/1 with equal weights (then accuracy is a proportion), otherwise bootstrap. */
    private Estimate accuracy(CaseScores cases, String label) {
        if (cases.size() > 0 && cases.binary() && cases.uniformWeights()) {
            double successes = 0;
            for (int i = 0; i < cases.size(); i++) {
                successes += cases.score(i);
            }
            return Wilson.interval(successes, cases.size());
        }
        return Bootstrap.mean(cases.scores(), cases.weights(), settings.seed(), "accuracy|" + label,
                settings.resamples());
    }

    private static Estimate passRate(CaseScores cases) {
        int passed = 0;
        for (int i = 0; i < cases.size(); i++) {
            passed += cases.passed(i) ? 1 : 0;
        }
        return Wilson.interval(passed, cases.size());
    }

    /** Per metric: the mean over repeats and scorers within a case, then the weighted mean over cases. */
    private Map<String, Estimate> metrics(Iterable<ScorerCell> scorers, String label) {
        int size = cell.cases.size();
        // per metric: {sum, count} of each case, by case number; scorers add in their (name) order
        Map<String, double[][]> byMetric = new TreeMap<>();
        for (ScorerCell scorer : scorers) {
            if (!scorer.runs.hasMetrics()) {
                // no result of this scorer reported a metric: nothing to visit case by case
                continue;
            }
            for (int i = 0; i < size; i++) {
                int caseNumber = i;
                scorer.runs.addMetrics(i, (metric, sum, count) -> {
                    double[][] acc = byMetric.computeIfAbsent(metric, m -> new double[2][size]);
                    acc[0][caseNumber] += sum;
                    acc[1][caseNumber] += count;
                });
            }
        }
        Map<String, Estimate> estimates = new TreeMap<>();
        byMetric.forEach((metric, acc) -> {
            int n = 0;
            for (int i : order) {
                n += acc[1][i] > 0 ? 1 : 0;
            }
            double[] values = new double[n];
            double[] weights = new double[n];
            int next = 0;
            for (int i : order) {
                if (acc[1][i] > 0) {
                    values[next] = acc[0][i] / acc[1][i];
                    weights[next++] = cell.weight(i);
                }
            }
            estimates.put(metric, Bootstrap.mean(values, weights, settings.seed(), metric + "|" + label,
                    settings.resamples()));
        });
        return estimates;
    }
}
