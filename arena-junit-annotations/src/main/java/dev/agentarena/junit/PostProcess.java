package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * Marks a hook that reshapes the output before it is scored: strip a markdown fence, extract a field (the spec's
 * {@code post_process}; its pair {@link PreProcess} rewrites the prompt before).
 *
 * <p>It receives the output ({@code String}) and optionally the {@link EvalCase} and the {@link ScoringContext}, and
 * returns the new output as a {@code String}, or a {@link ScoreResult} to override the verdict of every scorer of
 * that case. An override's reason reaches the results; judgement hidden in a hook otherwise would not. Declare it in
 * the eval class or in a class named by {@link ProcessWith @ProcessWith}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface PostProcess {
}
