package dev.agentarena.junit.engine.reporting.report;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * One result as the report's page shows it: the values its record is written from, whether they were read back from
 * a results line ({@link #of}) or taken from the result as the run reports it ({@link InRunReport}). One record of the
 * page is written from this alone, so the two ways give the same bytes as long as they give the same values.
 *
 * @param eval the eval
 * @param model the model
 * @param dataset the dataset, or {@code null}
 * @param caseId the case's id
 * @param scorer the scorer
 * @param scorerVersion its version, or {@code null}
 * @param repeat the repeat, from 0
 * @param score the score, or {@code null} when there is none
 * @param status the status, or {@code null} when unknown
 * @param reason the reason, or {@code null}
 * @param metrics the metrics as a non-empty object, or {@code null} when there are none
 * @param latencyMs the latency, or {@code null}
 * @param queueMs the time the calls waited for their turn under rate limits, or {@code null} when they did not
 * @param costUsd the cost
 * @param tokensIn prompt tokens
 * @param tokensOut completion tokens
 * @param cached whether the answer came from a cache
 * @param tokensCached prompt tokens the provider served from its cache
 * @param error the error, or {@code null}
 * @param output the output, or {@code null}
 * @param tags the tags, each as its text
 * @param input the case's input as the results line holds it (cut), or {@code null}
 * @param reference its reference, likewise, or {@code null}
 * @param trajectory the trajectory's steps, or {@code null}
 * @param plain which of the texts are known to be {@linkplain DataBytes#plain plain} (the bits {@link #CASE_ID},
 *     {@link #REASON}, {@link #ERROR}, {@link #OUTPUT}, {@link #INPUT}, {@link #REFERENCE}), so that the record copies
 *     them without looking at each character again; 0 says nothing, every text is then written as any other
 */
record Shown(String eval, String model, String dataset, String caseId, String scorer, String scorerVersion, int repeat,
        Double score, ResultStatus status, String reason, JsonNode metrics, Long latencyMs, Long queueMs,
        double costUsd,
        long tokensIn, long tokensOut, boolean cached, long tokensCached, String error, String output,
        List<String> tags, String input, String reference, JsonNode trajectory, int plain) {

    // the bits of plain, in the order InRunReport looks at the texts
    /** A bit of {@link #plain}: the case id is plain. */
    static final int CASE_ID = 1;
    /** A bit of {@link #plain}: the reason is plain. */
    static final int REASON = 2;
    /** A bit of {@link #plain}: the error is plain. */
    static final int ERROR = 4;
    /** A bit of {@link #plain}: the output is plain. */
    static final int OUTPUT = 8;
    /** A bit of {@link #plain}: the input is plain. */
    static final int INPUT = 16;
    /** A bit of {@link #plain}: the reference is plain. */
    static final int REFERENCE = 32;

    /** The values of a result read from a results line (or a tree), as the page has always read them. */
    static Shown of(ResultLines.Fields node) {
        JsonNode score = node.get("score");
        JsonNode metrics = node.get("metrics");
        JsonNode latency = node.get("latency_ms");
        JsonNode queue = node.get("queue_ms");
        List<String> tags = new ArrayList<>();
        for (JsonNode tag : node.path("tags")) {
            tags.add(tag.asText());
        }
        JsonNode trajectory = node.get("trajectory");
        return new Shown(node.text("eval"), node.text("model"), node.text("dataset"), node.text("case_id"),
                node.text("scorer"), node.text("scorer_version"), node.path("repeat").asInt(),
                score != null && score.isNumber() ? score.asDouble() : null, CaseReport.Page.statusOf(node),
                node.text("reason"), metrics != null && metrics.isObject() && !metrics.isEmpty() ? metrics : null,
                latency != null && latency.isNumber() ? latency.asLong() : null,
                queue != null && queue.isNumber() && queue.asLong() > 0 ? queue.asLong() : null,
                node.path("cost_usd").asDouble(),
                node.path("tokens_in").asLong(), node.path("tokens_out").asLong(), node.path("cached").asBoolean(),
                node.path("tokens_cached").asLong(), node.text("error"), node.text("output"), tags,
                node.text("input"), node.text("reference"),
                trajectory == null || trajectory.isNull() ? null : trajectory, 0);
    }
}
