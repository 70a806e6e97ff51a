package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;
import org.junit.platform.commons.annotation.Testable;

/**
 * Supplies an eval's cases.
 *
 * <p>On a method, the method returns the cases as a {@code Stream}, {@code Iterable}, {@code Iterator} or array of
 * {@link EvalCase}, unless {@link #value()} names a dataset file, in which case the method is not called. On the
 * class, {@link #value()} must name a file. Each dataset becomes its own container in the test tree when a class
 * has several.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Testable
@Repeatable(EvalDatasets.class)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface EvalDataset {

    /**
     * A dataset file (JSON Lines, JSON, YAML or CSV, by extension), looked up on the classpath first, then relative
     * to the project root. Empty for a method that returns its cases.
     */
    String value() default "";

    /** The dataset's name in the tree and in legacy reporting names; defaults to the method or file base name. */
    String name() default "";
}
