package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/** Builds result records for tests: a pass or fail by default, status derived from the score. */
public final class Results {

    private final String eval;
    private final String model;
    private final String caseId;
    private String scorer = "exact_match";
    private String version = "v1";
    private int repeat;
    private Double score = 1.0;
    private ResultStatus status;
    private Map<String, Double> metrics = new HashMap<>();
    private Long latency = 100L;
    private Long queue;
    private long tokensIn = 10;
    private long tokensOut = 5;
    private long tokensCached;
    private double cost = 0.001;
    private boolean cached;
    private double weight = 1.0;
    private String output = "output";

    private Results(String eval, String model, String caseId) {
        this.eval = eval;
        this.model = model;
        this.caseId = caseId;
    }

    public static Results of(String eval, String model, String caseId) {
        return new Results(eval, model, caseId);
    }

    /** A 0/1 result of exact_match v1. */
    public static ResultRecord binary(String eval, String model, String caseId, boolean passed) {
        return of(eval, model, caseId).score(passed ? 1.0 : 0.0).build();
    }

    public Results scorer(String name) {
        this.scorer = name;
        return this;
    }

    public Results version(String v) {
        this.version = v;
        return this;
    }

    public Results repeat(int r) {
        this.repeat = r;
        return this;
    }

    public Results score(Double s) {
        this.score = s;
        return this;
    }

    public Results status(ResultStatus s) {
        this.status = s;
        return this;
    }

    public Results metric(String name, double value) {
        metrics.put(name, value);
        return this;
    }

    public Results latency(Long ms) {
        this.latency = ms;
        return this;
    }

    public Results queue(Long ms) {
        this.queue = ms;
        return this;
    }

    public Results tokens(long in, long out) {
        this.tokensIn = in;
        this.tokensOut = out;
        return this;
    }

    /** Prompt tokens served from the provider's prompt cache, a part of the prompt tokens. */
    public Results cachedTokens(long cachedIn) {
        this.tokensCached = cachedIn;
        return this;
    }

    public Results cost(double usd) {
        this.cost = usd;
        return this;
    }

    public Results cached(boolean c) {
        this.cached = c;
        return this;
    }

    /** The scored output; {@code null} with status error says the case's call failed before any scorer ran. */
    public Results output(String text) {
        this.output = text;
        return this;
    }

    public Results weight(double w) {
        this.weight = w;
        return this;
    }

    public ResultRecord build() {
        ResultStatus s = status;
        if (s == null) {
            s = score == null ? ResultStatus.NOT_APPLICABLE
                    : score >= 0.5 ? ResultStatus.PASSED : ResultStatus.FAILED;
        }
        Boolean passed = s == ResultStatus.PASSED ? Boolean.TRUE : s == ResultStatus.FAILED ? Boolean.FALSE : null;
        String registry = (eval + "-" + scorer).toLowerCase().replace('_', '-');
        return new ResultRecord(eval, model, "dataset", caseId, scorer, version, registry, repeat, score, passed, s,
                "reason", metrics, latency, queue, tokensIn, tokensOut, tokensCached, cost, cached, weight, List.of(), s == ResultStatus.ERROR ? "boom" : null, output);
    }
}
