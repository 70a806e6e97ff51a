package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;
import org.junit.platform.commons.annotation.Testable;

/**
 * Names an eval class and sets its default scorers.
 *
 * <p>Optional: a class with an {@link EvalDataset} is an eval already, named after its simple name.
 * The name keys baselines and scorer versions, so keep it stable.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Inherited
@Testable
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Eval {

    /** The eval's name; empty means the class's simple name. */
    String value() default "";

    /**
     * Builtin or discovered scorers (by name, e.g. {@code "exact_match"}) that grade every case that does not
     * name its own {@code eval_type}. Empty means the configured {@code arena.scorers.default}.
     */
    String[] scorers() default {};

    /**
     * How many times each case runs, for flakiness and pass@k; 0 means {@code arena.repeats} (default 1). A value of
     * {@code arena.repeats} set in the configuration wins over this one.
     */
    int repeats() default 0;

    /**
     * Whether the class's {@code @Scorer} methods may be called concurrently. By default they are not: the cases of a
     * dataset run concurrently (up to {@code arena.concurrency}) on one instance of the class, and the engine calls its
     * {@code @Scorer} methods one at a time, so a scorer that keeps state in a field grades every case right without
     * any synchronisation of its own. Set it to {@code true} for scorers that wait on something slow (a judge model,
     * a service) and keep no unsynchronised state: they then run side by side.
     */
    boolean concurrentScorers() default false;
}
