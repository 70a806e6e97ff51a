package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * Ranks the eval's models side by side: after every model ran, a judge compares, case by case, the outputs of each
 * pair of models, in both orders, and the leaderboard shows win, tie and loss counts per pair and a Bradley-Terry
 * rating per model (with 95% bootstrap intervals, plain and length-controlled), next to the per-case scores.
 *
 * <p>It sits on the eval, not on a scorer, because a comparison needs two models' outputs for the same case, which a
 * scorer (one output at a time) never sees. The eval needs at least two models; its test {@code arena} runs after
 * them, before {@code leaderboard}. See {@code docs/guides/arena.md}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Arena {

    /**
     * The judge's model key; empty for {@code arena.arena.judge}, else {@code arena.judge.model} (by default
     * {@code sim_judge}). The configuration key {@code arena.arena.judge} overrides it.
     */
    String judge() default "";

    /** What makes one answer better than the other; empty for the default rubric (correct, then helpful). */
    String rubric() default "";
}
