package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ArenaSettings;
import dev.agentarena.junit.engine.config.ConfigurationException;

/**
 * How a leaderboard is computed.
 *
 * @param seed seed of every bootstrap ({@code arena.seed})
 * @param resamples bootstrap resamples ({@code arena.leaderboard.bootstrap-resamples})
 * @param weights composite weights by dimension ({@code arena.metrics.weights.<dimension>}, default accuracy 1.0)
 * @param lowerIsBetter custom metrics where less is better, besides cost, latency and tokens
 *        ({@code arena.metrics.lower-is-better}, comma-separated)
 * @param bounded custom metrics whose values lie in [0, 1], besides accuracy and pass rate: the composite keeps their
 *        value instead of rescaling them across models ({@code arena.metrics.bounded}, comma-separated)
 * @param reducer how repeats of a case are reduced ({@code arena.repeat-reducer}, default {@code mean})
 * @param minCases below this many shared cases a comparison is called underpowered
 *        ({@code arena.leaderboard.min-cases}; the defaults are {@link ArenaSettings}'s)
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record LeaderboardSettings(long seed, int resamples, Map<String, Double> weights, Set<String> lowerIsBetter,
        Set<String> bounded, RepeatReducer reducer, int minCases) {

    /** Dimension: weighted mean of per-case scores. */
    public static final String ACCURACY = "accuracy";
    /** Dimension: share of cases whose verdict passed. */
    public static final String PASS_RATE = "pass_rate";
    /** Dimension: mean cost in US dollars per case (all repeats of a case together). */
    public static final String COST = "cost";
    /** Dimension: median latency in milliseconds of non-cached calls. */
    public static final String LATENCY = "latency";
    /** Dimension: mean tokens (prompt plus completion) per case. */
    public static final String TOKENS = "tokens";
    /** Dimension: {@link #LATENCY} under the name results carry, {@code latency_ms}. */
    public static final String LATENCY_MS = "latency_ms";
    /** Dimension: mean prompt tokens per case. */
    public static final String TOKENS_IN = "tokens_in";
    /** Dimension: mean completion tokens per case. */
    public static final String TOKENS_OUT = "tokens_out";

    /** Builtin dimensions where less is better. */
    static final Set<String> BUILTIN_LOWER_IS_BETTER = Set.of(COST, LATENCY, TOKENS, LATENCY_MS, TOKENS_IN,
            TOKENS_OUT);

    /** Builtin dimensions that are shares in [0, 1]: the composite uses their value as it is. */
    static final Set<String> BUILTIN_BOUNDED = Set.of(ACCURACY, PASS_RATE);

    /** The key that declares custom metrics bounded, for messages. */
    static final String BOUNDED_KEY = Constants.METRICS_BOUNDED;

    /** Freezes and checks. */
    public LeaderboardSettings {
        if (resamples < 0) {
            throw new IllegalArgumentException("resamples must not be negative");
        }
        weights = weights == null || weights.isEmpty() ? Map.of(ACCURACY, 1.0)
                : Collections.unmodifiableMap(new LinkedHashMap<>(weights));
        weights.forEach((name, weight) -> {
            if (weight == null || !Double.isFinite(weight) || weight < 0) {
                throw new ConfigurationException("The weight of " + name + " must be a finite number >= 0, but was "
                        + weight);
            }
        });
        lowerIsBetter = lowerIsBetter == null ? Set.of() : Set.copyOf(lowerIsBetter);
        bounded = bounded == null ? Set.of() : Set.copyOf(bounded);
        reducer = reducer == null ? RepeatReducer.MEAN : reducer;
    }

    /** The defaults of every setting ({@link ArenaSettings}): accuracy only, mean of repeats. */
    public static LeaderboardSettings defaults() {
        return new LeaderboardSettings(ArenaSettings.DEFAULT_SEED, ArenaSettings.DEFAULT_BOOTSTRAP_RESAMPLES, Map.of(),
                Set.of(), Set.of(), RepeatReducer.MEAN, ArenaSettings.DEFAULT_MIN_CASES);
    }

    /** These settings with other weights. */
    public LeaderboardSettings withWeights(Map<String, Double> newWeights) {
        return new LeaderboardSettings(seed, resamples, newWeights, lowerIsBetter, bounded, reducer, minCases);
    }

    /** These settings with another reducer. */
    public LeaderboardSettings withReducer(RepeatReducer newReducer) {
        return new LeaderboardSettings(seed, resamples, weights, lowerIsBetter, bounded, newReducer, minCases);
    }

    /** These settings with another seed. */
    public LeaderboardSettings withSeed(long newSeed) {
        return new LeaderboardSettings(newSeed, resamples, weights, lowerIsBetter, bounded, reducer, minCases);
    }

    /** These settings with more custom metrics where less is better. */
    public LeaderboardSettings withLowerIsBetter(Set<String> metrics) {
        return new LeaderboardSettings(seed, resamples, weights, metrics, bounded, reducer, minCases);
    }

    /** These settings with more custom metrics whose values lie in [0, 1]. */
    public LeaderboardSettings withBounded(Set<String> metrics) {
        return new LeaderboardSettings(seed, resamples, weights, lowerIsBetter, metrics, reducer, minCases);
    }

    /** Whether less is better on a dimension. */
    public boolean lowerIsBetter(String dimension) {
        return BUILTIN_LOWER_IS_BETTER.contains(dimension) || lowerIsBetter.contains(dimension);
    }

    /** Whether a dimension's values lie in [0, 1], so the composite keeps them as they are. */
    public boolean bounded(String dimension) {
        return BUILTIN_BOUNDED.contains(dimension) || bounded.contains(dimension);
    }

    /** Reads the settings, naming the key in any error. */
    public static LeaderboardSettings from(ArenaConfiguration configuration) {
        ArenaSettings settings = configuration.typed();
        long seed = settings.seed();
        Map<String, Double> weights = new LinkedHashMap<>();
        configuration.section(Constants.METRIC_WEIGHTS_PREFIX).forEach((name, value) -> {
            try {
                weights.put(name, Double.parseDouble(String.valueOf(value).trim()));
            }
            catch (NumberFormatException e) {
                throw new ConfigurationException(Constants.METRIC_WEIGHTS_PREFIX + name + " must be a number, but was \""
                        + value + "\"");
            }
        });
        Set<String> lower = new TreeSet<>();
        lower.addAll(configuration.getList(Constants.METRICS_LOWER_IS_BETTER));
        Set<String> bounded = new TreeSet<>(configuration.getList(Constants.METRICS_BOUNDED));
        RepeatReducer reducer = configuration.get(Constants.REPEAT_REDUCER).map(text -> reducer(configuration, text))
                .orElse(RepeatReducer.MEAN);
        return new LeaderboardSettings(seed, settings.bootstrapResamples(), weights, lower, bounded, reducer,
                settings.minCases());
    }

    /** {@code arena.repeat-reducer}, with an error that names the key and where it was set. */
    private static RepeatReducer reducer(ArenaConfiguration configuration, String text) {
        try {
            return RepeatReducer.parse(text);
        }
        catch (ConfigurationException e) {
            throw configuration.invalid(Constants.REPEAT_REDUCER, text, RepeatReducer.ACCEPTED);
        }
    }
}
