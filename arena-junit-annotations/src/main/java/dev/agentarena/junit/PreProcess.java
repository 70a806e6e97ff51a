package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * Marks a hook that rewrites the prompt before the model is called (the spec's {@code pre_request}); its pair
 * {@link PostProcess} reshapes the output after.
 *
 * <p>It receives the prompt ({@code String}) and optionally the {@link EvalCase}, and returns the prompt to send.
 * Declare it in the eval class or in a class named by {@link ProcessWith @ProcessWith}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface PreProcess {
}
