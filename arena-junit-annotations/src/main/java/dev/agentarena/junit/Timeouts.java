package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;

import org.apiguardian.api.API;

/**
 * Time limits of one eval's calls into user code, over the run-wide {@code arena.timeout.task},
 * {@code arena.timeout.hook} and {@code arena.timeout.scorer}; amounts of {@link #unit()}, as JUnit's
 * {@code @Timeout(value, unit)}. 0 (the default) keeps the configured limit.
 *
 * <p>A call past its limit is interrupted and becomes an error of its case naming the limit; a call that does not
 * stop when interrupted is left running while the eval goes on.
 *
 * <pre>{@code
 * @Eval("research-agent")
 * @Timeouts(task = 10, scorer = 1, unit = TimeUnit.MINUTES)
 * class ResearchAgentEvalTest { ... }
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Timeouts {

    /** The limit of one {@link Task} call (or of the default model call), model calls included. */
    long task() default 0;

    /** The limit of one {@link PreProcess} or {@link PostProcess} hook call. */
    long hook() default 0;

    /** The limit of one scorer call on one output, judge calls included; at most 60 seconds. */
    long scorer() default 0;

    /** The unit of the three limits. */
    TimeUnit unit() default TimeUnit.SECONDS;
}
