package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * Names classes whose {@link PreProcess @PreProcess} and {@link PostProcess @PostProcess} methods apply to this eval,
 * after the eval class's own, as JUnit's {@code @ExtendWith} names extensions:
 * {@code @ProcessWith(ExtractionHooks.class)}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ProcessWith {

    /** Hook classes, each with a no-argument constructor (or static hook methods). */
    Class<?>[] value();
}
