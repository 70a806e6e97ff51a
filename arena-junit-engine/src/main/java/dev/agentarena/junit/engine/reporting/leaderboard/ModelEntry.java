package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.statistics.CaseScores;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.reporting.statistics.PairedTest;

/**
 * One model's row in an eval's leaderboard.
 *
 * <p>A case's model-level score is the mean of its scorers' reduced scores (scorers that abstained left out); its
 * verdict passes when every counted scorer's verdict passed. Cost and tokens are counted once per model call, that is
 * once per case and repeat, however many scorers graded the output.
 *
 * @param model the model key
 * @param rank 1 for the best composite
 * @param composite Σ w·normalised / Σ w over the weighted dimensions, {@code NaN} when there are none
 * @param normalized each weighted dimension's normalised value in [0, 1], higher better
 * @param accuracy weighted mean of per-case scores
 * @param passRate share of cases whose verdict passed
 * @param cases cases with a counted score
 * @param errors results with status {@code error}, of every scorer and repeat: kept out of accuracy, so shown beside it
 * @param callErrors model calls (case and repeat) that failed before any scorer ran: the model call, the task, a hook
 *        or an unreadable row (each makes one error result per scorer)
 * @param scorerErrors results whose scorer threw on an output it was given
 * @param notRun model calls the budget left over
 * @param calls model calls made
 * @param costUsd total cost in US dollars
 * @param costPerCase mean cost per case, all repeats of a case together
 * @param tokensIn total prompt tokens
 * @param tokensOut total completion tokens
 * @param tokensCached total prompt tokens the provider served from its prompt cache (a part of {@code tokensIn})
 * @param tokensPerCase mean prompt plus completion tokens per case
 * @param latencyP50Ms median latency of non-cached calls, {@code NaN} when there were none
 * @param latencyP95Ms 95th percentile latency of non-cached calls
 * @param latencyCalls non-cached calls with a latency
 * @param queueP50Ms median time those calls waited for their turn under the key's rate limits (kept out of the
 *        latency), {@code NaN} when none waited
 * @param queueP95Ms 95th percentile of that time, {@code NaN} when none waited
 * @param metrics custom metrics over all scorers
 * @param onParetoFrontier whether no other model is at least as accurate and at most as costly, and better in one
 * @param vsBest the paired test against the top-ranked model, {@code null} for that model
 * @param scorers per-scorer aggregates, by scorer name
 * @param caseScores the per-case scores
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ModelEntry(String model, int rank, double composite, Map<String, Double> normalized, Estimate accuracy,
        Estimate passRate, int cases, int errors, int callErrors, int scorerErrors, int notRun, int calls,
        double costUsd, Estimate costPerCase,
        long tokensIn, long tokensOut, long tokensCached, double tokensPerCase, double latencyP50Ms, double latencyP95Ms,
        int latencyCalls, double queueP50Ms, double queueP95Ms, Map<String, Estimate> metrics, boolean onParetoFrontier, PairedTest vsBest,
        List<ScorerEntry> scorers, CaseScores caseScores) {

    /** Freezes the collections. */
    public ModelEntry {
        normalized = Collections.unmodifiableMap(new LinkedHashMap<>(normalized));
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        scorers = List.copyOf(scorers);
    }

    /** A dimension's raw value, {@code NaN} when this model has none. */
    public double dimension(String name) {
        switch (name) {
            case LeaderboardSettings.ACCURACY:
                return accuracy.value();
            case LeaderboardSettings.PASS_RATE:
                return passRate.value();
            case LeaderboardSettings.COST:
                return costPerCase.value();
            case LeaderboardSettings.LATENCY:
            case LeaderboardSettings.LATENCY_MS:
                return latencyP50Ms;
            case LeaderboardSettings.TOKENS:
                return tokensPerCase;
            case LeaderboardSettings.TOKENS_IN:
                return cases == 0 ? Double.NaN : (double) tokensIn / cases;
            case LeaderboardSettings.TOKENS_OUT:
                return cases == 0 ? Double.NaN : (double) tokensOut / cases;
            default:
                Estimate metric = metrics.get(name);
                return metric == null ? Double.NaN : metric.value();
        }
    }

    /** This entry placed in its eval's ranking. */
    ModelEntry ranked(int newRank, double newComposite, Map<String, Double> newNormalized, boolean pareto,
            PairedTest comparison) {
        return new ModelEntry(model, newRank, newComposite, newNormalized, accuracy, passRate, cases, errors,
                callErrors, scorerErrors, notRun, calls, costUsd, costPerCase, tokensIn, tokensOut, tokensCached, tokensPerCase, latencyP50Ms, latencyP95Ms,
                latencyCalls, queueP50Ms, queueP95Ms, metrics, pareto, comparison, scorers, caseScores);
    }

    /**
     * Whether more results errored than cases were scored: the accuracy then speaks for the minority of what ran
     * ({@code accuracy 1.000 over n=2, errors 4}), and every view that shows it says so beside it.
     */
    public boolean errorsOutnumberScored() {
        return errors > cases;
    }

    /** What {@link #errorsOutnumberScored()} says, in words: {@code errors outnumber scored cases (4 errors, 2 scored)}. */
    public String errorsOutnumberScoredText() {
        return "errors outnumber scored cases (" + errors + " error" + (errors == 1 ? "" : "s") + ", " + cases
                + " scored)";
    }

    /** The named scorer's aggregates, if it graded this model. */
    public Optional<ScorerEntry> scorer(String name) {
        return scorers.stream().filter(s -> s.scorer().equals(name)).findFirst();
    }
}
