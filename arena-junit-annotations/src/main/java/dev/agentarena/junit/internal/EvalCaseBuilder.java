package dev.agentarena.junit.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.SimulatedUser;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Trajectory;
import dev.agentarena.junit.tracing.TraceSpan;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Builds an {@link EvalCase} in one step, with every part, including those eval classes do not set: the eval type (a
 * dataset row's {@code eval_type}) and the parts of a case derived from another (a turn's input). Engine use only.
 *
 * <p>The builder freezes each collection once, when it is set; {@link EvalCase} takes them as they are, through a
 * private factory of its own, so that no constructor of it is public and it depends on nothing in this package.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EvalCaseBuilder {

    /** {@code EvalCase}'s private factory of frozen parts, which checks the id, the weight and scorer names. */
    private static final MethodHandle CREATE = privateFactory(EvalCase.class, "create", MethodType.methodType(
            EvalCase.class, String.class, Object.class, Object.class, Set.class, double.class, Map.class, String.class,
            Object.class, Map.class, Map.class, List.class, List.class, SimulatedUser.class, Map.class, List.class));

    private final String id;
    private @Nullable Object input;
    private final @Nullable Object reference;
    private Set<String> tags = Set.of();
    private double weight = 1.0;
    private Map<String, Object> metadata = Map.of();
    private @Nullable String evalType;
    private @Nullable Object recordedOutput;
    private Map<String, Map<String, Object>> scorerOptions = Map.of();
    private Map<String, @Nullable Object> toolResults = Map.of();
    private @Nullable List<ToolCall> expectedTrajectory;
    private List<String> turns = List.of();
    private @Nullable SimulatedUser simulatedUser;
    private Map<String, Integer> relevant = Map.of();
    private List<String> referencePassages = List.of();
    private Trajectory recordedTrajectory = Trajectory.EMPTY;
    private List<RetrievedPassage> recordedRetrieved = List.of();
    private List<TraceSpan> recordedSpans = List.of();

    private EvalCaseBuilder(String id, @Nullable Object input, @Nullable Object reference) {
        this.id = id;
        this.input = input;
        this.reference = reference;
    }

    /** A case of these parts and nothing else: weight 1, no tags, no metadata. */
    public static EvalCaseBuilder of(String id, @Nullable Object input, @Nullable Object reference) {
        return new EvalCaseBuilder(id, input, reference);
    }

    /** A case with every part of this one, to change some of them. */
    public static EvalCaseBuilder from(EvalCase evalCase) {
        EvalCaseBuilder builder = new EvalCaseBuilder(evalCase.id(), evalCase.input(), evalCase.reference());
        builder.tags = evalCase.tags();
        builder.weight = evalCase.weight();
        builder.metadata = evalCase.metadata();
        builder.evalType = evalCase.evalType().orElse(null);
        builder.recordedOutput = evalCase.recordedOutput().orElse(null);
        builder.scorerOptions = evalCase.scorerOptions();
        builder.toolResults = evalCase.toolResults();
        builder.expectedTrajectory = evalCase.expectedTrajectory().orElse(null);
        builder.turns = evalCase.turns();
        builder.simulatedUser = evalCase.simulatedUser().orElse(null);
        builder.relevant = evalCase.relevant();
        builder.referencePassages = evalCase.referencePassages();
        builder.recordedTrajectory = evalCase.recordedTrajectory();
        builder.recordedRetrieved = evalCase.recordedRetrieved();
        builder.recordedSpans = evalCase.recordedSpans();
        return builder;
    }

    public EvalCaseBuilder input(@Nullable Object newInput) {
        input = newInput;
        return this;
    }

    /** The tags, in order, each once; one tag (what a dataset row nearly always has) is kept as a set of one. */
    public EvalCaseBuilder tags(String... newTags) {
        tags = switch (newTags.length) {
            case 0 -> Set.of();
            case 1 -> Collections.singleton(newTags[0]);
            default -> Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(newTags)));
        };
        return this;
    }

    public EvalCaseBuilder weight(double newWeight) {
        weight = newWeight;
        return this;
    }

    public EvalCaseBuilder metadata(Map<String, ?> entries) {
        metadata = entries.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        return this;
    }

    /** The scorer this case asks for; {@code null} or blank for the eval's defaults. */
    public EvalCaseBuilder evalType(@Nullable String scorerName) {
        evalType = scorerName;
        return this;
    }

    public EvalCaseBuilder recordedOutput(@Nullable Object output) {
        recordedOutput = output;
        return this;
    }

    /** Options by scorer name. */
    public EvalCaseBuilder scorerOptions(Map<String, ? extends Map<String, ?>> options) {
        if (options.isEmpty()) {
            scorerOptions = Map.of();
            return this;
        }
        Map<String, Map<String, Object>> copy = new LinkedHashMap<>();
        options.forEach((scorer, values) -> copy.put(scorer, Collections.unmodifiableMap(new LinkedHashMap<>(values))));
        scorerOptions = Collections.unmodifiableMap(copy);
        return this;
    }

    public EvalCaseBuilder toolResults(Map<String, ?> results) {
        toolResults = results.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(results));
        return this;
    }

    public EvalCaseBuilder expectedTrajectory(@Nullable List<ToolCall> calls) {
        expectedTrajectory = calls == null ? null : List.copyOf(calls);
        return this;
    }

    public EvalCaseBuilder turns(List<String> userTurns) {
        turns = List.copyOf(userTurns);
        return this;
    }

    public EvalCaseBuilder simulatedUser(@Nullable SimulatedUser user) {
        simulatedUser = user;
        return this;
    }

    /** The relevant passages' grades by id, in order (checked by {@link #build}). */
    public EvalCaseBuilder relevant(Map<String, Integer> grades) {
        relevant = grades;
        return this;
    }

    /** The reference passages' texts (checked by {@link #build}). */
    public EvalCaseBuilder referencePassages(List<String> texts) {
        referencePassages = texts;
        return this;
    }

    /** What a recorded run did besides its output: its trajectory, retrieved passages and trace spans. */
    public EvalCaseBuilder recorded(Trajectory trajectory, List<RetrievedPassage> retrieved, List<TraceSpan> spans) {
        recordedTrajectory = trajectory;
        recordedRetrieved = retrieved;
        recordedSpans = spans;
        return this;
    }

    /**
     * The case.
     *
     * @throws IllegalArgumentException as {@link EvalCase}'s own methods do: a blank id, a negative or non-finite
     *         weight, a blank scorer name, turns and a simulated user both, a blank relevant id, a negative grade,
     *         a blank reference passage
     */
    public EvalCase build() {
        try {
            EvalCase built = (EvalCase) CREATE.invokeExact(id, input, reference, tags, weight, metadata, evalType,
                    recordedOutput, scorerOptions, toolResults, expectedTrajectory, turns, simulatedUser, relevant,
                    referencePassages);
            // most cases recorded nothing: no copies of the case for nothing
            return recordedTrajectory.isEmpty() && recordedRetrieved.isEmpty() && recordedSpans.isEmpty() ? built
                    : built.withRecordedTrajectory(recordedTrajectory).withRecordedRetrieved(recordedRetrieved)
                            .withRecordedSpans(recordedSpans);
        }
        catch (RuntimeException | Error e) {
            throw e;
        }
        catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A private static method or constructor ({@code "<init>"}) of an API type of this module, which this package may
     * reach as the API's own code would: the API types keep their factories private and depend on nothing here.
     */
    static MethodHandle privateFactory(Class<?> type, String name, MethodType signature) {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
            return name.equals("<init>") ? lookup.findConstructor(type, signature.changeReturnType(void.class))
                    : lookup.findStatic(type, name, signature);
        }
        catch (ReflectiveOperationException e) {
            throw new IllegalStateException(type.getName() + " has no factory " + name + signature, e);
        }
    }
}
