package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.statistics.CaseScores;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;

/**
 * Aggregates of one scorer on one model in one eval.
 *
 * @param scorer the score name
 * @param scorerVersion the scorer's digest; several, comma-separated, if the run mixed versions
 * @param registryName the scorer's registry name
 * @param accuracy weighted mean of reduced per-case scores (Wilson when all are 0/1 with equal weights, else
 *        bootstrap)
 * @param passRate share of counted cases whose reduced verdict passed (Wilson)
 * @param results records seen
 * @param errors records with status {@code error}: shown, never counted as a low score
 * @param callErrors of those, the ones whose case's call failed before this scorer ran
 * @param scorerErrors of those, the ones where this scorer threw on an output
 * @param notApplicable records left out because the scorer abstained
 * @param notRun records of cases the budget left over
 * @param metrics per custom metric, the weighted mean over cases of the per-case mean (bootstrap)
 * @param flaky cases whose repeats disagreed, by case id
 * @param cases the reduced per-case scores
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ScorerEntry(String scorer, String scorerVersion, String registryName, Estimate accuracy,
        Estimate passRate, int results, int errors, int callErrors, int scorerErrors, int notApplicable, int notRun,
        Map<String, Estimate> metrics,
        List<FlakyCase> flaky, CaseScores cases) {

    /** Freezes the collections. */
    public ScorerEntry {
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        flaky = List.copyOf(flaky);
    }
}
