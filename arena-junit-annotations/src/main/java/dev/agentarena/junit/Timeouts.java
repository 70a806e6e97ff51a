package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * Time limits of one eval's calls into user code, over the run-wide {@code arena.timeout.task},
 * {@code arena.timeout.hook} and {@code arena.timeout.scorer}.
 *
 * <p>A call past its limit is interrupted and becomes an error of its case naming the limit; a call that does not
 * stop when interrupted is left running while the eval goes on. Durations are written like JUnit's:
 * {@code "90 s"}, {@code "500 ms"}, {@code "2 m"}, {@code "1 h"} (a bare number is seconds). Empty keeps the
 * configured limit.
 *
 * <pre>{@code
 * @Eval("research-agent")
 * @Timeouts(task = "10 m", scorer = "2 m")
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
    String task() default "";

    /** The limit of one {@link PreProcess} or {@link PostProcess} hook call. */
    String hook() default "";

    /** The limit of one scorer call on one output, judge calls included. */
    String scorer() default "";
}
