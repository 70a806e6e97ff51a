package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * The container of repeated {@link ScorerOption @ScorerOption}s, as JUnit's {@code @Tags} is of {@code @Tag}. The
 * compiler writes it when a class carries several {@code @ScorerOption}s; it can also be written by hand:
 *
 * <pre>{@code
 * @ScorerOptions({
 *     @ScorerOption(scorer = "classification", name = "labels", value = {"positive", "negative", "neutral"}),
 *     @ScorerOption(scorer = "numeric", name = "tolerance", value = "0.05")
 * })
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ScorerOptions {

    /** The repeated annotations. */
    ScorerOption[] value();
}
