package dev.agentarena.junit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * The grade of one output: a score in [0, 1], a verdict, a reason for humans, structured detail and custom metrics.
 *
 * <p>A {@code null} verdict means "unscored" (the {@code manual} type): the result is reported as not applicable and
 * kept out of accuracy. Every metric becomes a leaderboard dimension that {@code metrics.weights} can weigh.
 *
 * <pre>{@code
 * ScoreResult.of(cited / total).withReason("3 of 4 citations found").withMetric("citation_rate", cited / total)
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class ScoreResult {

    /** The score at or above which {@link #of(double)} counts as passed. */
    public static final double DEFAULT_THRESHOLD = 0.5;

    private final String name;
    private final double score;
    private final Boolean passed;
    private final String reason;
    private final Map<String, Object> detail;
    private final Map<String, Double> metrics;

    private ScoreResult(String name, double score, Boolean passed, String reason, Map<String, Object> detail,
            Map<String, Double> metrics) {
        if (!Double.isFinite(score)) {
            throw new IllegalArgumentException("a score must be a finite number, was " + score);
        }
        if (score < 0.0 || score > 1.0) {
            throw new IllegalArgumentException("a score must lie in [0, 1], was " + score);
        }
        this.name = name;
        this.score = score;
        this.passed = passed;
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

    /** A score with an explicit verdict. */
    public static ScoreResult of(double score, boolean passed) {
        return new ScoreResult(null, score, passed, "", Map.of(), Map.of());
    }

    /** A score with no verdict, reported as not applicable: for outputs collected for human grading. */
    public static ScoreResult unscored(double score, String reason) {
        return new ScoreResult(null, score, null, reason, Map.of(), Map.of());
    }

    /** A copy with this reason. */
    public ScoreResult withReason(String newReason) {
        return new ScoreResult(name, score, passed, newReason, detail, metrics);
    }

    /** A copy with this detail entry added (structured data for the drill-down). */
    public ScoreResult withDetail(String key, Object value) {
        Map<String, Object> all = new LinkedHashMap<>(detail);
        all.put(Objects.requireNonNull(key, "key"), value);
        return new ScoreResult(name, score, passed, reason, all, metrics);
    }

    /** A copy with these detail entries added. */
    public ScoreResult withDetail(Map<String, ?> entries) {
        Map<String, Object> all = new LinkedHashMap<>(detail);
        all.putAll(entries);
        return new ScoreResult(name, score, passed, reason, all, metrics);
    }

    /** A copy with this custom metric added; it becomes a leaderboard dimension under its name. */
    public ScoreResult withMetric(String metric, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("metric '" + metric + "' must be finite, was " + value);
        }
        Map<String, Double> all = new LinkedHashMap<>(metrics);
        all.put(Objects.requireNonNull(metric, "metric"), value);
        return new ScoreResult(name, score, passed, reason, detail, all);
    }

    /** A copy under this score name, for scorers that return several named scores. */
    public ScoreResult named(String scoreName) {
        return new ScoreResult(scoreName, score, passed, reason, detail, metrics);
    }

    /** The score name, when this result is one of several named scores. */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /** The score in [0, 1]; drives accuracy. */
    public double score() {
        return score;
    }

    /** The verdict; {@code null} for unscored results. */
    public Boolean passed() {
        return passed;
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
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ScoreResult)) {
            return false;
        }
        ScoreResult other = (ScoreResult) o;
        return Double.compare(score, other.score) == 0 && Objects.equals(name, other.name)
                && Objects.equals(passed, other.passed) && reason.equals(other.reason) && detail.equals(other.detail)
                && metrics.equals(other.metrics);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, score, passed, reason, detail, metrics);
    }

    @Override
    public String toString() {
        return "ScoreResult[" + (name == null ? "" : name + ": ") + score + ", passed=" + passed
                + (reason.isEmpty() ? "" : ", reason=" + reason) + (metrics.isEmpty() ? "" : ", metrics=" + metrics)
                + "]";
    }
}
