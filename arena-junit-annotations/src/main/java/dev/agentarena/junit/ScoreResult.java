package dev.agentarena.junit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The grade of one output: a score in [0, 1], a {@link Verdict}, a reason for humans, structured detail and custom
 * metrics.
 *
 * <p>The verdict is never {@code null}: {@link Verdict#UNSCORED} (made by {@link #unscored(double, String)}, the
 * {@code manual} type) is reported as not applicable and kept out of accuracy. Every metric becomes a leaderboard
 * dimension that {@code metrics.weights} can weigh.
 *
 * <p>Immutable. {@code with...} methods return a copy in which what they name is replaced: the reason, or, for the
 * keyed {@code withDetail(key, value)} and {@code withMetric(name, value)}, the entry under that key. {@code plus...}
 * methods return a copy with more added to what is there.
 *
 * <pre>{@code
 * ScoreResult.of(cited / total).withReason("3 of 4 citations found").withMetric("citation_rate", cited / total)
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class ScoreResult {

    /** The score at or above which {@link #of(double)} counts as passed. */
    public static final double DEFAULT_THRESHOLD = 0.5;

    private final @Nullable String name;
    private final double score;
    private final Verdict verdict;
    private final String reason;
    private final Map<String, Object> detail;
    private final Map<String, Double> metrics;

    private ScoreResult(@Nullable String name, double score, Verdict verdict, @Nullable String reason,
            Map<String, Object> detail, Map<String, Double> metrics) {
        if (!Double.isFinite(score)) {
            throw new IllegalArgumentException("a score must be a finite number, was " + score);
        }
        if (score < 0.0 || score > 1.0) {
            throw new IllegalArgumentException("a score must lie in [0, 1], was " + score);
        }
        this.name = name;
        this.score = score;
        this.verdict = Objects.requireNonNull(verdict, "verdict");
        this.reason = reason == null ? "" : reason;
        this.detail = Collections.unmodifiableMap(detail);
        this.metrics = Collections.unmodifiableMap(metrics);
    }

    /** Score 1, passed. */
    public static ScoreResult pass() {
        return of(1.0, true);
    }

    /** Score 1, passed, with a reason. */
    public static ScoreResult pass(String reason) {
        return pass().withReason(reason);
    }

    /** Score 0, failed. */
    public static ScoreResult fail() {
        return of(0.0, false);
    }

    /** Score 0, failed, with a reason. */
    public static ScoreResult fail(String reason) {
        return fail().withReason(reason);
    }

    /** A score that passes at or above {@link #DEFAULT_THRESHOLD}. */
    public static ScoreResult of(double score) {
        return of(score, score >= DEFAULT_THRESHOLD);
    }

    /** A score with an explicit verdict, passed or failed. */
    public static ScoreResult of(double score, boolean passed) {
        return of(score, Verdict.of(passed));
    }

    /** A score with this verdict; {@link Verdict#UNSCORED} as for {@link #unscored(double, String)}. */
    public static ScoreResult of(double score, Verdict verdict) {
        return new ScoreResult(null, score, verdict, "", Map.of(), Map.of());
    }

    /**
     * A score with no verdict ({@link Verdict#UNSCORED}), reported as not applicable: for outputs collected for human
     * grading, or a grader that abstained. The score stays with this object only: results write every not-applicable
     * result alike, with {@code "score": null} and this reason, but the builtin {@code manual}'s 0.5 ("always 0.5,
     * unscored"), which they show under the not-applicable status.
     */
    public static ScoreResult unscored(double score, @Nullable String reason) {
        return new ScoreResult(null, score, Verdict.UNSCORED, reason, Map.of(), Map.of());
    }

    /**
     * Not applicable, with the reason: the scorer has nothing to grade in this case (its reference is missing or of
     * a shape it cannot read, or its rule does not concern the case). Like a {@code null} return it is kept out of
     * the mean and the count, and written with {@code "score": null}; unlike one, it says why.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public static ScoreResult notApplicable(String reason) {
        return unscored(0.0, Objects.requireNonNull(reason, "reason"));
    }

    /** A copy with this reason; {@code null} is the empty reason. */
    public ScoreResult withReason(@Nullable String newReason) {
        return new ScoreResult(name, score, verdict, newReason, detail, metrics);
    }

    /** A copy with this detail entry (structured data for the drill-down), replacing any entry under that key. */
    public ScoreResult withDetail(String key, @Nullable Object value) {
        Map<String, Object> all = new LinkedHashMap<>(detail);
        all.put(Objects.requireNonNull(key, "key"), value);
        return new ScoreResult(name, score, verdict, reason, all, metrics);
    }

    /** A copy whose detail is these entries, in place of the detail it had. */
    public ScoreResult withDetail(Map<String, ?> entries) {
        return new ScoreResult(name, score, verdict, reason, new LinkedHashMap<>(entries), metrics);
    }

    /** A copy with these detail entries added to the detail it has, each replacing an entry under the same key. */
    public ScoreResult plusDetail(Map<String, ?> entries) {
        Map<String, Object> all = new LinkedHashMap<>(detail);
        all.putAll(entries);
        return new ScoreResult(name, score, verdict, reason, all, metrics);
    }

    /** A copy with this custom metric, replacing any metric of that name; it becomes a leaderboard dimension. */
    public ScoreResult withMetric(String metric, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("metric '" + metric + "' must be finite, was " + value);
        }
        Map<String, Double> all = new LinkedHashMap<>(metrics);
        all.put(Objects.requireNonNull(metric, "metric"), value);
        return new ScoreResult(name, score, verdict, reason, detail, all);
    }

    /** A copy under this score name, for scorers that return several named scores. */
    public ScoreResult named(String scoreName) {
        return new ScoreResult(scoreName, score, verdict, reason, detail, metrics);
    }

    /** The score name, when this result is one of several named scores. */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /** The score in [0, 1]; drives accuracy. */
    public double score() {
        return score;
    }

    /** The verdict: passed, failed, or {@link Verdict#UNSCORED}; never {@code null}. */
    public Verdict verdict() {
        return verdict;
    }

    /** Whether the verdict is {@link Verdict#PASSED}: {@code false} for failed and for unscored results. */
    public boolean passed() {
        return verdict == Verdict.PASSED;
    }

    /** Whether the result grades the output, that is, its verdict is not {@link Verdict#UNSCORED}. */
    public boolean isScored() {
        return verdict.isScored();
    }

    /** Why it scored that way, written for a human; never {@code null}. */
    public String reason() {
        return reason;
    }

    /** Scorer-specific structured data. */
    public Map<String, Object> detail() {
        return detail;
    }

    /** Extra numbers, weightable in {@code metrics.weights} by name. */
    public Map<String, Double> metrics() {
        return metrics;
    }

    @Override
    public boolean equals(@Nullable Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ScoreResult other)) {
            return false;
        }
        return Double.compare(score, other.score) == 0 && Objects.equals(name, other.name)
                && verdict == other.verdict && reason.equals(other.reason) && detail.equals(other.detail)
                && metrics.equals(other.metrics);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, score, verdict, reason, detail, metrics);
    }

    @Override
    public String toString() {
        return "ScoreResult[" + (name == null ? "" : name + ": ") + score + ", " + verdict
                + (reason.isEmpty() ? "" : ", reason=" + reason) + (metrics.isEmpty() ? "" : ", metrics=" + metrics)
                + "]";
    }
}
