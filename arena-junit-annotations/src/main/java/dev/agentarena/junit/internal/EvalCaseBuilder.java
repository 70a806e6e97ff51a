package dev.agentarena.junit.internal;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.SimulatedUser;
import dev.agentarena.junit.model.ToolCall;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Builds an {@link EvalCase} in one step, with every part, including those eval classes do not set: the eval type (a
 * dataset row's {@code eval_type}) and the parts of a case derived from another (a turn's input). Engine use only.
 *
 * <p>The builder freezes each collection once, when it is set; {@link EvalCase} takes them as they are. Its factory
 * is registered by {@code EvalCase} itself when that class is initialised, so its constructor stays private.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EvalCaseBuilder {

    /** Makes a case of frozen parts; {@code EvalCase} registers the one implementation. */
    @FunctionalInterface
    public interface Factory {

        /** A case of these parts, which the builder froze; checks the id and the weight. */
        EvalCase create(String id, @Nullable Object input, @Nullable Object reference, Set<String> tags,
                double weight, Map<String, Object> metadata, @Nullable String evalType, @Nullable Object recordedOutput,
                Map<String, Map<String, Object>> scorerOptions, Map<String, @Nullable Object> toolResults,
                @Nullable List<ToolCall> expectedTrajectory, List<String> turns, @Nullable SimulatedUser simulatedUser);
    }

    private static volatile @Nullable Factory factory;

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

    private EvalCaseBuilder(String id, @Nullable Object input, @Nullable Object reference) {
        this.id = id;
        this.input = input;
        this.reference = reference;
    }

    /** Registers {@code EvalCase}'s factory; called once, by {@code EvalCase}. */
    public static void register(Factory caseFactory) {
        if (factory != null) {
            throw new IllegalStateException("EvalCase's factory is already registered");
        }
        factory = caseFactory;
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

    /**
     * The case.
     *
     * @throws IllegalArgumentException as {@link EvalCase}'s own methods do: a blank id, a negative or non-finite
     *         weight, a blank scorer name, turns and a simulated user both
     */
    public EvalCase build() {
        Factory cases = factory;
        if (cases == null) {
            initialise(EvalCase.class);
            cases = factory;
        }
        return cases.create(id, input, reference, tags, weight, metadata, evalType, recordedOutput, scorerOptions,
                toolResults, expectedTrajectory, turns, simulatedUser);
    }

    /** Runs a type's static initialiser, which registers its factory. */
    static void initialise(Class<?> type) {
        try {
            Class.forName(type.getName(), true, type.getClassLoader());
        }
        catch (ClassNotFoundException e) {
            throw new IllegalStateException(type.getName() + " is part of this jar", e);
        }
    }
}
