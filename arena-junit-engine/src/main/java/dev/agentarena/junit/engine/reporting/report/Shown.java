package dev.agentarena.junit.engine.reporting.report;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * One result as the page shows it: the values its record ({@link PageData#record}) is written from, read back from a
 * results line ({@link #of}) or made from the result as the run reports it ({@link InRunReport}), so that both ways
 * give the same page as long as they give the same values. A field the result lacks is {@code null} (the metrics
 * also when empty, the queue time also when 0, the retrieved passages also when none); {@code input} and
 * {@code reference} are as the results line cuts them; {@code verdicts} the {@code passage_verdicts} and {@code missed}
 * of the scorer's detail, {@code null} when it has neither; {@code spans} the case's spans as the line holds them,
 * {@code null} when none.
 */
record Shown(String eval, String model, String dataset, String caseId, String scorer, String scorerVersion, int repeat,
        Double score, ResultStatus status, String reason, JsonNode metrics, Long latencyMs, Long queueMs,
        double costUsd, long tokensIn, long tokensOut, boolean cached, long tokensCached, String error, String output,
        List<String> tags, String input, String reference, JsonNode trajectory, JsonNode retrieved,
        JsonNode verdicts, JsonNode spans) {

    /** The detail keys a scorer of passages fills (the RAG parts' shared contract), which the page shows. */
    static final String PASSAGE_VERDICTS = "passage_verdicts";
    static final String MISSED = "missed";
    /**
     * The detail keys of a successful attack ({@code attack_resisted}): the evidence, a list of {where, what}, and the
     * canary and probe it concerns, which the page shows when the evidence is not empty.
     */
    static final String EVIDENCE = "evidence";
    static final List<String> ATTACK_KEYS = List.of(EVIDENCE, "canary", "probe");

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
        JsonNode retrieved = node.get("retrieved");
        JsonNode spans = node.get("spans");
        return new Shown(node.text("eval"), node.text("model"), node.text("dataset"), node.text("case_id"),
                node.text("scorer"), node.text("scorer_version"), node.path("repeat").asInt(),
                score != null && score.isNumber() ? score.asDouble() : null, status(node),
                node.text("reason"), metrics != null && metrics.isObject() && !metrics.isEmpty() ? metrics : null,
                latency != null && latency.isNumber() ? latency.asLong() : null,
                queue != null && queue.isNumber() && queue.asLong() > 0 ? queue.asLong() : null,
                node.path("cost_usd").asDouble(),
                node.path("tokens_in").asLong(), node.path("tokens_out").asLong(), node.path("cached").asBoolean(),
                node.path("tokens_cached").asLong(), node.text("error"), node.text("output"), tags,
                node.text("input"), node.text("reference"),
                trajectory == null || trajectory.isNull() ? null : trajectory,
                retrieved == null || !retrieved.isArray() || retrieved.isEmpty() ? null : retrieved,
                verdicts(node.get("detail")), spans == null || !spans.isArray() || spans.isEmpty() ? null : spans);
    }

    /**
     * The scorer's verdicts on passages from its detail, {@code {"passage_verdicts": [...], "missed": [...]}} with the
     * lists it holds (a non-empty array each), or {@code null} when it holds neither.
     */
    static JsonNode verdicts(JsonNode detail) {
        if (detail == null || !detail.isObject()) {
            return null;
        }
        JsonNode verdicts = detail.get(PASSAGE_VERDICTS);
        JsonNode missed = detail.get(MISSED);
        JsonNode evidence = detail.get(EVIDENCE);
        boolean hasVerdicts = verdicts != null && verdicts.isArray() && !verdicts.isEmpty();
        boolean hasMissed = missed != null && missed.isArray() && !missed.isEmpty();
        boolean hasEvidence = evidence != null && evidence.isArray() && !evidence.isEmpty();
        if (!hasVerdicts && !hasMissed && !hasEvidence) {
            return null;
        }
        ObjectNode both = JsonNodeFactory.instance.objectNode();
        if (hasVerdicts) {
            both.set(PASSAGE_VERDICTS, verdicts);
        }
        if (hasMissed) {
            both.set(MISSED, missed);
        }
        if (hasEvidence) {
            for (String key : ATTACK_KEYS) {
                JsonNode value = detail.get(key);
                if (value != null && (value.isArray() || value.isTextual())) {
                    both.set(key, value);
                }
            }
        }
        return both;
    }

    private static ResultStatus status(ResultLines.Fields node) {
        try {
            JsonNode status = node.get("status");
            return status == null || status.isNull() ? null : ResultStatus.fromJsonName(status.asText());
        }
        catch (IllegalArgumentException e) {
            return null;
        }
    }
}
