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
 * One configuration of what an eval compares, such as a retriever's chunk size, top-k or index, e.g.
 * {@code @EvalConfiguration(name = "bm25-k5", settings = {"index=bm25", "top_k=5"})}, repeated once per
 * configuration.
 *
 * <p>An eval that declares configurations compares them the way other evals compare models: each is a container of
 * the test tree, the {@code model} of its results lines, a row of the leaderboard with its interval and paired tests,
 * a target of gates and baselines. Its {@link Task @Task} receives the configuration of the case as a
 * {@link TaskConfiguration} parameter. The configurations run on no model unless one is named: the eval's single
 * model ({@link UseModels @UseModels}, {@link EvalModel @EvalModel} or {@code arena.models}), or a configuration's own
 * setting {@code model=<key>}; a retrieval-only eval names none, and its task's calls to the model fail.
 *
 * <p>A name is not blank, has no surrounding spaces or control characters, and is unique within the eval; each
 * setting is {@code key=value}, its key given once. The configuration key
 * {@code arena.evals.<eval>.configurations.<name>.<setting>} replaces them all, as {@code arena.models} replaces
 * {@link UseModels @UseModels}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Inherited
@Repeatable(EvalConfigurations.class)
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface EvalConfiguration {

    /** The configuration's name, where a model's key is shown: test names, results, the leaderboard, gates. */
    String name();

    /** The settings, each {@code key=value} (the value may be empty and may hold {@code =}). */
    String[] settings() default {};
}
