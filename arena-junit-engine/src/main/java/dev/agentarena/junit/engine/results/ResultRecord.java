package dev.agentarena.junit.engine.results;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One result: what one scorer said of one case's output from one model, as written to {@code results.jsonl}.
 *
 * <p>The aggregates, the leaderboard and baselines are all computed from these records, so a results file from an
 * earlier run can be read back into them.
 *
 * @param eval the eval's name
 * @param model the model key
 * @param dataset the dataset's name
 * @param caseId the case id
 * @param scorer the score name
 * @param scorerVersion the digest of the scorer's code
 * @param registryName {@code <eval-name>-<scorer-name>}, lowercased, {@code _} as {@code -}
 * @param repeat the repeat index, from 0
 * @param score the score, or {@code null} when not applicable or an error
 * @param passed the verdict, or {@code null}
 * @param status what became of the verdict
 * @param reason why, for a human
 * @param metrics custom metrics of the scorer and the task
 * @param latencyMs the model call's latency, or {@code null} when served from a recording or not called; without the
 *        time it waited for its turn
 * @param queueMs the time the model calls waited for their turn under their model key's rate limits, apart from the
 *        latency; {@code null} when the calls did not wait (or were served from a recording, or not made), and then
 *        not written: a run without rate limits writes the lines it always wrote
 * @param tokensIn prompt tokens
 * @param tokensOut completion tokens
 * @param tokensCached prompt tokens the provider served from its prompt cache, a part of {@code tokensIn}
 * @param costUsd cost in US dollars
 * @param cached whether the output came from a recording
 * @param weight the case's weight
 * @param tags the case's tags
 * @param error the error message, or {@code null}
 * @param output the (post-processed) output, or {@code null} when the task failed
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ResultRecord(
        String eval,
        String model,
        String dataset,
        String caseId,
        String scorer,
        String scorerVersion,
        String registryName,
        int repeat,
        Double score,
        Boolean passed,
        ResultStatus status,
        String reason,
        Map<String, Double> metrics,
        Long latencyMs,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long queueMs,
        long tokensIn,
        long tokensOut,
        long tokensCached,
        double costUsd,
        boolean cached,
        double weight,
        List<String> tags,
        String error,
        String output) {

    /** Freezes the collections; a queue time of 0 is none. */
    public ResultRecord {
        queueMs = queueMs == null || queueMs <= 0 ? null : queueMs;
        // insertion order: the scorer's order of its metrics is what every output shows
        // an empty map is not copied: most results have no metric, and a run makes millions of records
        metrics = metrics == null || metrics.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        tags = tags == null ? List.of() : List.copyOf(tags);
    }

    /** A result without its queue time (as before it was measured apart). */
    public ResultRecord(String eval, String model, String dataset, String caseId, String scorer, String scorerVersion,
            String registryName, int repeat, Double score, Boolean passed, ResultStatus status, String reason,
            Map<String, Double> metrics, Long latencyMs, long tokensIn, long tokensOut, long tokensCached,
            double costUsd, boolean cached, double weight, List<String> tags, String error, String output) {
        this(eval, model, dataset, caseId, scorer, scorerVersion, registryName, repeat, score, passed, status, reason,
                metrics, latencyMs, null, tokensIn, tokensOut, tokensCached, costUsd, cached, weight, tags, error,
                output);
    }

    /** A result without cached prompt tokens (as before they were counted). */
    public ResultRecord(String eval, String model, String dataset, String caseId, String scorer, String scorerVersion,
            String registryName, int repeat, Double score, Boolean passed, ResultStatus status, String reason,
            Map<String, Double> metrics, Long latencyMs, long tokensIn, long tokensOut, double costUsd, boolean cached,
            double weight, List<String> tags, String error, String output) {
        this(eval, model, dataset, caseId, scorer, scorerVersion, registryName, repeat, score, passed, status, reason,
                metrics, latencyMs, null, tokensIn, tokensOut, 0, costUsd, cached, weight, tags, error, output);
    }

    /** Whether this result counts towards accuracy: scored, not an error, not abstained. */
    public boolean counts() {
        return score != null && status.counts();
    }
}
