package dev.agentarena.junit.scoring;

import java.util.Locale;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;

/**
 * The scorer contract: grades one output into a {@link ScoreResult}.
 *
 * <p>Implementations with a public no-argument constructor are found without registration: in the eval class's
 * package or a {@code scorers} sub-package of it, or listed in {@code META-INF/services/dev.agentarena.junit.scoring.OutputScorer}.
 * They are used by name as a case's {@code eval_type}, in {@code @Eval(scorers = ...)} or in {@code scorers.default};
 * their options ({@code scorers.options.<name>}) arrive through the context.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public interface OutputScorer {

    /**
     * The scorer's name; by default the simple class name without a {@code Scorer} suffix, in snake case
     * ({@code CurrencyScorer} is {@code currency}).
     */
    default String name() {
        String simple = getClass().getSimpleName();
        if (simple.endsWith("Scorer") && simple.length() > "Scorer".length()) {
            simple = simple.substring(0, simple.length() - "Scorer".length());
        }
        return simple.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }

    /**
     * Grades one output.
     *
     * @param output the (post-processed) output text
     * @param reference the case's reference, any JSON-like value, or {@code null}
     * @param context the case, the model, the options and a judge
     * @return the grade, or {@code null} when the scorer does not apply to this case
     */
    @Nullable
    ScoreResult score(String output, @Nullable Object reference, ScoringContext context);
}
