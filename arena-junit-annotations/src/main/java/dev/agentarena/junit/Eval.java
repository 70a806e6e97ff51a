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
}
