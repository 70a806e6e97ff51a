package dev.agentarena.junit.internal;

import java.util.Map;

import dev.agentarena.junit.ScorerOptionValues;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Makes {@link ScorerOptionValues} that know where each option was set ({@code "in /p/arena.yaml, line 7"},
 * {@code "from @ScorerOption on com.acme.TriageEvalTest"}), which their errors and {@code sourceOf} then name. Engine
 * use only; {@code ScorerOptionValues} registers the factory when it is initialised.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ScorerOptionSources {

    /** Makes option values with their sources; {@code ScorerOptionValues} registers the one implementation. */
    @FunctionalInterface
    public interface Factory {

        /** The options of the named scorer, with where each was set, by option name. */
        ScorerOptionValues create(String scorer, Map<String, ?> values, Map<String, String> sources);
    }

    private static volatile @Nullable Factory factory;

    private ScorerOptionSources() {
    }

    /** Registers {@code ScorerOptionValues}'s factory; called once, by {@code ScorerOptionValues}. */
    public static void register(Factory valuesFactory) {
        if (factory != null) {
            throw new IllegalStateException("ScorerOptionValues' factory is already registered");
        }
        factory = valuesFactory;
    }

    /**
     * Options of the named scorer, each with where it was set.
     *
     * @param sources where each option was set, by option name; options without an entry have no known source
     */
    public static ScorerOptionValues of(String scorer, Map<String, ?> values, Map<String, String> sources) {
        Factory made = factory;
        if (made == null) {
            EvalCaseBuilder.initialise(ScorerOptionValues.class);
            made = factory;
        }
        return made.create(scorer, values, sources);
    }
}
