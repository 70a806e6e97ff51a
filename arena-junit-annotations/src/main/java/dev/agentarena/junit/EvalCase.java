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

    private EvalCase(String id, Object input, Object reference, Set<String> tags, double weight,
            Map<String, Object> metadata, String evalType, Object recordedOutput) {
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
    }

    /** A case with weight 1, no tags and no metadata. */
    public static EvalCase of(String id, Object input, Object reference) {
        return new EvalCase(id, input, reference, Set.of(), 1.0, Map.of(), null, null);
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

    /** Free-form metadata, passed to scorers. */
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

    /** A copy with these tags added. */
    public EvalCase withTags(String... moreTags) {
        Set<String> all = new LinkedHashSet<>(tags);
        all.addAll(Arrays.asList(moreTags));
        return new EvalCase(id, input, reference, all, weight, metadata, evalType, recordedOutput);
    }

    /** A copy with this weight. */
    public EvalCase withWeight(double newWeight) {
        return new EvalCase(id, input, reference, tags, newWeight, metadata, evalType, recordedOutput);
    }

    /** A copy with this metadata entry added. */
    public EvalCase withMetadata(String key, Object value) {
        Map<String, Object> all = new LinkedHashMap<>(metadata);
        all.put(Objects.requireNonNull(key, "key"), value);
        return new EvalCase(id, input, reference, tags, weight, all, evalType, recordedOutput);
    }

    /** A copy with these metadata entries added. */
    public EvalCase withMetadata(Map<String, ?> entries) {
        Map<String, Object> all = new LinkedHashMap<>(metadata);
        all.putAll(entries);
        return new EvalCase(id, input, reference, tags, weight, all, evalType, recordedOutput);
    }

    /** A copy graded by this scorer instead of the eval's defaults. */
    public EvalCase withEvalType(String scorerName) {
        return new EvalCase(id, input, reference, tags, weight, metadata, scorerName, recordedOutput);
    }

    /** A copy carrying an output recorded elsewhere. */
    public EvalCase withRecordedOutput(Object output) {
        return new EvalCase(id, input, reference, tags, weight, metadata, evalType, output);
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
                && Objects.equals(recordedOutput, other.recordedOutput);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, input, reference, tags, weight, metadata, evalType, recordedOutput);
    }

    @Override
    public String toString() {
        return "EvalCase[" + id + "]";
    }
}
