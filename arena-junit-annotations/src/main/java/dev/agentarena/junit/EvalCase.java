package dev.agentarena.junit;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import org.apiguardian.api.API;

/**
 * One eval case: an input, a reference to grade against, and how much it counts.
 *
 * <p>Immutable; the {@code with...} methods return copies. The reference may be any JSON-like value: a
 * {@code String}, a number, a {@code List} or a {@code Map}.
 *
 * <pre>{@code
 * EvalCase.of("refund_request", "I was charged twice", "billing").withTags("priority")
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class EvalCase {

    private final String id;
    private final Object input;
    private final Object reference;
    private final Set<String> tags;
    private final double weight;
    private final Map<String, Object> metadata;
    private final String evalType;
    private final Object recordedOutput;
    private final Map<String, Map<String, Object>> scorerOptions;

    private EvalCase(String id, Object input, Object reference, Set<String> tags, double weight,
            Map<String, Object> metadata, String evalType, Object recordedOutput,
            Map<String, Map<String, Object>> scorerOptions) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("an eval case needs a non-blank id");
        }
        if (!Double.isFinite(weight) || weight < 0) {
            throw new IllegalArgumentException("case '" + id + "': weight must be a finite number >= 0, was " + weight);
        }
        this.id = id;
        this.input = input;
        this.reference = reference;
        this.tags = Collections.unmodifiableSet(new LinkedHashSet<>(tags));
        this.weight = weight;
        this.metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        this.evalType = evalType == null || evalType.isBlank() ? null : evalType;
        this.recordedOutput = recordedOutput;
        this.scorerOptions = frozen(scorerOptions);
    }

    private static Map<String, Map<String, Object>> frozen(Map<String, Map<String, Object>> options) {
        if (options.isEmpty()) {
            return Map.of();
        }
        Map<String, Map<String, Object>> copy = new LinkedHashMap<>();
        options.forEach((scorer, values) -> copy.put(scorer, Collections.unmodifiableMap(new LinkedHashMap<>(values))));
        return Collections.unmodifiableMap(copy);
    }

    /** A case with weight 1, no tags and no metadata. */
    public static EvalCase of(String id, Object input, Object reference) {
        return new EvalCase(id, input, reference, Set.of(), 1.0, Map.of(), null, null, Map.of());
    }

    /** The stable id that names this case in the tree, the results and baselines. */
    public String id() {
        return id;
    }

    /** What the task or model receives. */
    public Object input() {
        return input;
    }

    /** What the output is graded against; may be {@code null}. */
    public Object reference() {
        return reference;
    }

    /** Tags, which become JUnit test tags on the case and its scorers. */
    public Set<String> tags() {
        return tags;
    }

    /** The case's weight in weighted means; 1 by default. */
    public double weight() {
        return weight;
    }

    /**
     * Free-form data about the case, for scorers that read it (a {@code metadata} parameter of a {@code @Scorer}
     * method, {@code ScoringContext.testCase().metadata()}), e.g. the catalogue's {@code within_tolerance} reads
     * {@code tolerance}. Builtin scorers take their options from {@link #scorerOptions()}, never from here.
     */
    public Map<String, Object> metadata() {
        return metadata;
    }

    /** The scorer this case asks for, overriding the eval's default scorers. */
    public Optional<String> evalType() {
        return Optional.ofNullable(evalType);
    }

    /** An output recorded elsewhere, scored by the {@code recorded} model instead of calling a model. */
    public Optional<Object> recordedOutput() {
        return Optional.ofNullable(recordedOutput);
    }

    /**
     * This case's own scorer options, by scorer name (a dataset row's {@code scorer_options}): they win over the
     * eval's and the run's options of the same name, one option at a time.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public Map<String, Map<String, Object>> scorerOptions() {
        return scorerOptions;
    }

    /** A copy with these tags added. */
    public EvalCase withTags(String... moreTags) {
        Set<String> all = new LinkedHashSet<>(tags);
        all.addAll(Arrays.asList(moreTags));
        return new EvalCase(id, input, reference, all, weight, metadata, evalType, recordedOutput, scorerOptions);
    }

    /** A copy with this weight. */
    public EvalCase withWeight(double newWeight) {
        return new EvalCase(id, input, reference, tags, newWeight, metadata, evalType, recordedOutput, scorerOptions);
    }

    /** A copy with this metadata entry added. */
    public EvalCase withMetadata(String key, Object value) {
        Map<String, Object> all = new LinkedHashMap<>(metadata);
        all.put(Objects.requireNonNull(key, "key"), value);
        return new EvalCase(id, input, reference, tags, weight, all, evalType, recordedOutput, scorerOptions);
    }

    /** A copy with these metadata entries added. */
    public EvalCase withMetadata(Map<String, ?> entries) {
        Map<String, Object> all = new LinkedHashMap<>(metadata);
        all.putAll(entries);
        return new EvalCase(id, input, reference, tags, weight, all, evalType, recordedOutput, scorerOptions);
    }

    /** A copy graded by this scorer instead of the eval's defaults. */
    public EvalCase withEvalType(String scorerName) {
        return new EvalCase(id, input, reference, tags, weight, metadata, scorerName, recordedOutput, scorerOptions);
    }

    /** A copy carrying an output recorded elsewhere. */
    public EvalCase withRecordedOutput(Object output) {
        return new EvalCase(id, input, reference, tags, weight, metadata, evalType, output, scorerOptions);
    }

    /**
     * A copy with these options of one scorer added, over this case's earlier options of that scorer:
     * {@code withScorerOptions("numeric", Map.of("tolerance", 0.5))}.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public EvalCase withScorerOptions(String scorer, Map<String, ?> options) {
        if (scorer == null || scorer.isBlank()) {
            throw new IllegalArgumentException("case '" + id + "': scorer options need a scorer name");
        }
        Map<String, Map<String, Object>> all = new LinkedHashMap<>(scorerOptions);
        Map<String, Object> values = new LinkedHashMap<>(all.getOrDefault(scorer, Map.of()));
        options.forEach((name, value) -> values.put(Objects.requireNonNull(name, "option name"), value));
        all.put(scorer, values);
        return new EvalCase(id, input, reference, tags, weight, metadata, evalType, recordedOutput, all);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof EvalCase)) {
            return false;
        }
        EvalCase other = (EvalCase) o;
        return id.equals(other.id) && Objects.equals(input, other.input) && Objects.equals(reference, other.reference)
                && tags.equals(other.tags) && Double.compare(weight, other.weight) == 0
                && metadata.equals(other.metadata) && Objects.equals(evalType, other.evalType)
                && Objects.equals(recordedOutput, other.recordedOutput) && scorerOptions.equals(other.scorerOptions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, input, reference, tags, weight, metadata, evalType, recordedOutput, scorerOptions);
    }

    @Override
    public String toString() {
        return "EvalCase[" + id + "]";
    }
}
