package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * The models an eval runs against, e.g. {@code @UseModels({"sim_small", "openai:gpt-4o-mini"})}.
 *
 * <p>The configuration key {@code arena.models} overrides it for every eval, so CI can swap models without a code
 * change. Models the eval class supplies itself ({@link EvalModel @EvalModel}) join these. With none of them, the eval
 * runs against {@code sim_small}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface UseModels {

    /** Model keys, each selecting a model client by prefix. */
    String[] value();
}
