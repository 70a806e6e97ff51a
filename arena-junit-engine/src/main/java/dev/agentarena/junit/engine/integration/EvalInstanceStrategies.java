package dev.agentarena.junit.engine.integration;

import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.integration.spring.SpringTestContext;
import dev.agentarena.junit.engine.lifecycle.ConstructorInstances;
import dev.agentarena.junit.engine.lifecycle.EvalInstances;

/**
 * Picks who creates an eval class's instances: Spring's TestContext framework for a class annotated for it when
 * {@code spring-test} is on the class path, else the class's no-argument constructor.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EvalInstanceStrategies {

    private EvalInstanceStrategies() {
    }

    /**
     * Whether the class and its {@code @ProcessWith} classes are created with their no-argument constructors (else a
     * framework creates them, which may inject constructor parameters). Cheap: for checks at discovery.
     */
    public static boolean byConstructor(Class<?> evalClass) {
        return !SpringTestContext.appliesTo(evalClass);
    }

    /**
     * Opens the instances of one eval class; close them after its last case.
     *
     * @param properties the run's configuration parameters, for settings of the framework that creates them
     * @throws dev.agentarena.junit.engine.lifecycle.EvalInstanceException when the framework cannot start for the class
     */
    public static EvalInstances open(Class<?> evalClass, Function<String, Optional<String>> properties) {
        if (SpringTestContext.appliesTo(evalClass)) {
            return SpringTestContext.open(evalClass, properties);
        }
        return new ConstructorInstances(evalClass);
    }
}
