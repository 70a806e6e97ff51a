package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * One option of one scorer for every case of this eval, so that two evals of a project can grade with different
 * labels, tolerances or modes:
 *
 * <pre>{@code
 * @Eval(value = "sentiment", scorers = "classification")
 * @ScorerOption(scorer = "classification", name = "labels", value = {"positive", "negative", "neutral"})
 * @ScorerOption(scorer = "numeric", name = "tolerance", value = "0.05")
 * class SentimentEvalTest { ... }
 * }</pre>
 *
 * <p>It wins over the run-wide {@code scorers.options.<scorer>.<option>}; a case's own {@code scorer_options} win over
 * it, and so does the eval's block in {@code arena.yaml} ({@code evals: {<eval>: {scorers: {options: ...}}}}), as the
 * configuration wins over annotations everywhere else. The scorer reads the merged block as
 * {@link ScoringContext#options()} ({@link ScorerOptionValues}). Values are text, converted by the scorer's typed
 * getters like values from properties: one value is a scalar ({@code "0.05"}, {@code "true"}), several are a list.
 *
 * <p>Repeatable, like JUnit's {@code @Tag}: the compiler gathers repeated ones into {@link ScorerOptions
 * @ScorerOptions}. Inherited: a base class of several evals can carry their common options.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Inherited
@Repeatable(ScorerOptions.class)
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ScorerOption {

    /** The scorer the option belongs to: a builtin, catalogue or discovered scorer name, e.g. {@code "numeric"}. */
    String scorer();

    /** The option's name, e.g. {@code "tolerance"}. */
    String name();

    /** The value: one element for a scalar, several for a list. */
    String[] value();
}
