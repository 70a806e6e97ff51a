package dev.agentarena.junit.engine.evaluation;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.scoring.ScorerDeclarations;
import dev.agentarena.junit.internal.ScorerOptionSources;

/**
 * The one precedence of scorer options, option by option, highest first:
 * <ol>
 *   <li>the case: its {@code scorer_options} ({@link EvalCase#scorerOptions()});</li>
 *   <li>the eval: its block in the configuration ({@code arena.evals.<eval>.scorers.options.<scorer>.<option>}),
 *       then its {@code @ScorerOption}s (the configuration wins over annotations, as {@code arena.models} wins over
 *       {@code @UseModels});</li>
 *   <li>the run: {@code arena.scorers.options.<scorer>.<option>};</li>
 *   <li>the scorer's own default.</li>
 * </ol>
 * Each option keeps where it was set, so that a value of the wrong type is reported with its file and line, its
 * annotation, its case or its property.
 *
 * <p>A few options decide how generated code runs or which class is loaded: a dataset row, which may come from
 * anywhere (production logs, another team), must not turn the sandbox off or name the interpreter. Their scorers
 * declare them the run's or the eval's to set, never a case's ({@link ScorerDeclarations#notPerCase}).
 */
final class ScorerOptionLevels {

    private final ArenaConfiguration configuration;
    private final EvalDefinition definition;
    private final Map<String, Level> evalLevel = new ConcurrentHashMap<>();
    /** The options of a case without its own, by scorer: the same (immutable) values for every such case. */
    private final Map<String, ScorerOptionValues> evalValues = new ConcurrentHashMap<>();

    ScorerOptionLevels(ArenaConfiguration configuration, EvalDefinition definition) {
        this.configuration = configuration;
        this.definition = definition;
    }

    /**
     * The options one scorer reads for one case.
     *
     * @param row where the case was read, for messages; may be {@code null}
     */
    ScorerOptionValues forCase(String scorer, EvalCase evalCase, DatasetRow row) {
        Map<String, Object> own = evalCase == null ? null : evalCase.scorerOptions().get(scorer);
        if (own == null || own.isEmpty()) {
            // asked for every scorer of every case: built once per scorer
            ScorerOptionValues shared = evalValues.get(scorer);
            if (shared == null) {
                Level level = evalLevel.computeIfAbsent(scorer, this::evalAndRun);
                shared = evalValues.computeIfAbsent(scorer,
                        name -> ScorerOptionSources.of(name, level.values, level.sources));
            }
            return shared;
        }
        Level level = evalLevel.computeIfAbsent(scorer, this::evalAndRun);
        Level merged = level.copy();
        String where = "scorer_options of case '" + evalCase.id() + "'"
                + (row == null ? "" : row.location().map(location -> " at " + location).orElse(""));
        own.forEach((name, value) -> merged.put(name, value, where));
        return ScorerOptionSources.of(scorer, merged.values, merged.sources);
    }

    /** Why the case's own options may not be used, when one of them is only the run's or the eval's to set. */
    static Optional<String> notPerCase(EvalCase evalCase) {
        Map<String, Map<String, Object>> options = evalCase.scorerOptions();
        if (options.isEmpty()) {
            // nearly every case: no iterator over an empty map
            return Optional.empty();
        }
        for (Map.Entry<String, Map<String, Object>> scorer : options.entrySet()) {
            for (String option : scorer.getValue().keySet()) {
                if (ScorerDeclarations.notPerCase(scorer.getKey(), option)) {
                    return Optional.of("scorer_options." + scorer.getKey() + "." + option + " cannot be set per case: "
                            + "it decides how generated code runs or which class is loaded, which a dataset row must "
                            + "not; set it for the run or the eval (scorers.options or evals: in arena.yaml, or "
                            + "@ScorerOption)");
                }
            }
        }
        return Optional.empty();
    }

    /** The run's options of the scorer, overlaid with the eval's: the same for every case of the eval. */
    private Level evalAndRun(String scorer) {
        Level level = new Level();
        String runPrefix = Constants.SCORER_OPTIONS_PREFIX + scorer + ".";
        configuration.section(runPrefix).forEach((name, value) -> level.put(name, value, configured(runPrefix + name)));
        Map<String, Object> annotated = definition.scorerOptions().get(scorer);
        if (annotated != null) {
            String where = "@ScorerOption on " + definition.testClass().getName();
            annotated.forEach((name, value) -> level.put(name, value, where));
        }
        String evalPrefix = EvalDefinition.evalOptionsPrefix(definition.name()) + scorer + ".";
        configuration.section(evalPrefix).forEach((name, value) -> level.put(name, value, configured(evalPrefix + name)));
        return level;
    }

    /** "arena.scorers.options.numeric.tolerance in /p/arena.yaml, line 7". */
    private String configured(String key) {
        return key + " " + configuration.sourceOf(key);
    }

    /** Values and where each was set, in the order first set. */
    private static final class Level {

        final Map<String, Object> values = new LinkedHashMap<>();
        final Map<String, String> sources = new LinkedHashMap<>();

        void put(String name, Object value, String source) {
            values.put(name, value);
            sources.put(name, source);
        }

        Level copy() {
            Level copy = new Level();
            copy.values.putAll(values);
            copy.sources.putAll(sources);
            return copy;
        }
    }
}
