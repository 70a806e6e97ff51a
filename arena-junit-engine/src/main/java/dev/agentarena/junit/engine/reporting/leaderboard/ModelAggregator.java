package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.agentarena.junit.engine.reporting.statistics.Bootstrap;
import dev.agentarena.junit.engine.reporting.statistics.CaseScores;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.reporting.statistics.Quantiles;
import dev.agentarena.junit.engine.reporting.statistics.Wilson;
import dev.agentarena.junit.engine.results.ResultStatus;

/** Turns one model's cell into its aggregates, before ranking. */
final class ModelAggregator {

    private final String eval;
    private final String model;
    private final ModelCell cell;
    private final LeaderboardSettings settings;
    private final List<String> warnings;

    ModelAggregator(String eval, String model, ModelCell cell, LeaderboardSettings settings, List<String> warnings) {
        this.eval = eval;
        this.model = model;
        this.cell = cell;
        this.settings = settings;
        this.warnings = warnings;
    }

    /** The unranked entry: rank 0, composite NaN, no comparison. */
    ModelEntry aggregate() {
        List<ScorerEntry> scorers = new ArrayList<>();
        for (Map.Entry<String, ScorerCell> scorer : cell.scorers.entrySet()) {
            scorers.add(scorer(scorer.getKey(), scorer.getValue()));
        }
        CaseScores cases = modelCases(scorers);
        String label = eval + "|" + model;
        Estimate accuracy = accuracy(cases, label);
        Estimate passRate = passRate(cases);
        Map<String, Estimate> metrics = metrics(cell.scorers.values(), label);

        int calls = 0;
        int callErrors = 0;
        int notRun = 0;
        double cost = 0;
        long tokensIn = 0;
        long tokensOut = 0;
        double[] latencies = new double[cell.calls.size()];
        int latencyCount = 0;
        double[] caseCosts = new double[cell.calls.size()];
        int calledCases = 0;
        for (CaseCalls call : sortedCalls()) {
            boolean called = false;
            double caseCost = 0;
            for (int r = 0; r < call.repeats(); r++) {
                if (call.has(r, CaseCalls.CALLED)) {
                    called = true;
                    calls++;
                    caseCost += call.cost(r);
                    tokensIn += call.tokensIn(r);
                    tokensOut += call.tokensOut(r);
                    callErrors += call.has(r, CaseCalls.CALL_FAILED) ? 1 : 0;
                    if (call.latency(r) >= 0) {
                        if (latencyCount == latencies.length) {
                            latencies = Arrays.copyOf(latencies, latencyCount * 2 + 1);
                        }
                        latencies[latencyCount++] = call.latency(r);
                    }
                }
                else if (call.has(r, CaseCalls.NOT_RUN)) {
                    notRun++;
                }
            }
            if (called) {
                cost += caseCost;
                caseCosts[calledCases++] = caseCost;
            }
        }
        Estimate costPerCase = Bootstrap.mean(Arrays.copyOf(caseCosts, calledCases), null, settings.seed(),
                "cost|" + label, settings.resamples());
        double tokensPerCase = calledCases == 0 ? Double.NaN : (double) (tokensIn + tokensOut) / calledCases;
        double[] sortedLatencies = Arrays.copyOf(latencies, latencyCount);
        Arrays.sort(sortedLatencies);
        int errors = scorers.stream().mapToInt(ScorerEntry::errors).sum();
        int scorerErrors = scorers.stream().mapToInt(ScorerEntry::scorerErrors).sum();
        return new ModelEntry(model, 0, Double.NaN, Map.of(), accuracy, passRate, cases.size(), errors, callErrors,
                scorerErrors, notRun, calls, cost, costPerCase, tokensIn, tokensOut, tokensPerCase,
                Quantiles.of(sortedLatencies, 0.5),
                Quantiles.of(sortedLatencies, 0.95), sortedLatencies.length, metrics, false, null, scorers, cases);
    }

    private List<CaseCalls> sortedCalls() {
        List<CaseCalls> calls = new ArrayList<>(cell.calls.size());
        for (String id : sortedIds(cell.calls)) {
            calls.add(cell.calls.get(id));
        }
        return calls;
    }

    /**
     * The keys in ascending order, as a {@code TreeMap} of them would iterate: sorting an array of a run's case ids
     * costs a fraction of building a tree of them.
     */
    private static String[] sortedIds(Map<String, ?> byId) {
        String[] ids = byId.keySet().toArray(new String[0]);
        Arrays.sort(ids);
        return ids;
    }

    private ScorerEntry scorer(String name, ScorerCell scorer) {
        if (scorer.versions.size() > 1) {
            warnings.add(model + " / " + name + " was scored by several scorer versions (" + String.join(", ",
                    scorer.versions) + "); its results mix definitions");
        }
        String[] sortedIds = sortedIds(scorer.cases);
        String[] ids = new String[sortedIds.length];
        int kept = 0;
        int size = scorer.cases.size();
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
        for (String id : sortedIds) {
            CaseRuns runs = scorer.cases.get(id);
            errors += runs.count(ResultStatus.ERROR);
            callErrors += runs.callErrors();
            notApplicable += runs.count(ResultStatus.NOT_APPLICABLE);
            notRun += runs.count(ResultStatus.NOT_RUN);
            results += runs.seen();
            int n = 0;
            int c = 0;
            double sum = 0;
            double sumSquares = 0;
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (int r = 0; r < runs.repeats(); r++) {
                ResultStatus status = runs.status(r);
                if (status != null && status.counts()) {
                    double score = runs.score(r);
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
            int i = kept++;
            ids[i] = id;
            scores[i] = reducer.reduce(n, c, mean);
            passed[i] = reducer.verdict(n, c);
            weights[i] = cell.weight(id);
            if (n > 1 && ((c > 0 && c < n) || max > min)) {
                double variance = Math.max(0, sumSquares / n - mean * mean);
                flaky.add(new FlakyCase(id, c, n, min, max, Math.sqrt(variance)));
            }
        }
        if (loweredK > 0) {
            warnings.add(model + " / " + name + ": " + loweredK + " case(s) had fewer than " + reducer.k()
                    + " counted repeats; " + reducer + " used k = n for them");
        }
        int n = kept;
        // already in id order
        CaseScores cases = new CaseScores(Arrays.copyOf(ids, n), Arrays.copyOf(scores, n), Arrays.copyOf(passed, n),
                Arrays.copyOf(weights, n));
        String label = eval + "|" + model + "|" + name;
        return new ScorerEntry(name, String.join(",", scorer.versions), scorer.registryName, accuracy(cases, label),
                passRate(cases), results, errors, callErrors, errors - callErrors, notApplicable, notRun,
                metrics(List.of(scorer), label), flaky, cases);
    }

    /** A case's model-level score is the mean of its counted scorers; it passes when they all passed. */
    private CaseScores modelCases(List<ScorerEntry> scorers) {
        // each case's scores are added in scorer order, whatever the map; the ids are sorted once at the end
        Map<String, double[]> byCase = new HashMap<>();
        for (ScorerEntry scorer : scorers) {
            CaseScores cases = scorer.cases();
            for (int i = 0; i < cases.size(); i++) {
                double[] acc = byCase.computeIfAbsent(cases.id(i), id -> new double[] {0, 0, 1});
                acc[0] += cases.score(i);
                acc[1]++;
                acc[2] = cases.passed(i) ? acc[2] : 0;
            }
        }
        String[] ids = sortedIds(byCase);
        double[] scores = new double[ids.length];
        boolean[] passed = new boolean[ids.length];
        double[] weights = new double[ids.length];
        for (int i = 0; i < ids.length; i++) {
            double[] acc = byCase.get(ids[i]);
            scores[i] = acc[0] / acc[1];
            passed[i] = acc[2] == 1;
            weights[i] = cell.weight(ids[i]);
        }
        return new CaseScores(ids, scores, passed, weights);
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
        Map<String, Map<String, double[]>> byMetric = new TreeMap<>();
        for (ScorerCell scorer : scorers) {
            for (Map.Entry<String, CaseRuns> entry : scorer.cases.entrySet()) {
                if (!entry.getValue().hasMetrics()) {
                    continue;
                }
                Map<String, double[]> sums = new HashMap<>();
                entry.getValue().addMetrics(sums);
                sums.forEach((metric, sum) -> {
                    double[] acc = byMetric.computeIfAbsent(metric, m -> new TreeMap<>())
                            .computeIfAbsent(entry.getKey(), id -> new double[2]);
                    acc[0] += sum[0];
                    acc[1] += sum[1];
                });
            }
        }
        Map<String, Estimate> estimates = new TreeMap<>();
        byMetric.forEach((metric, cases) -> {
            double[] values = new double[cases.size()];
            double[] weights = new double[cases.size()];
            int i = 0;
            for (Map.Entry<String, double[]> entry : cases.entrySet()) {
                values[i] = entry.getValue()[0] / entry.getValue()[1];
                weights[i++] = cell.weight(entry.getKey());
            }
            estimates.put(metric, Bootstrap.mean(values, weights, settings.seed(), metric + "|" + label,
                    settings.resamples()));
        });
        return estimates;
    }
}
