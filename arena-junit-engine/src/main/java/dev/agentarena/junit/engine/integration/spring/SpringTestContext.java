package dev.agentarena.junit.engine.integration.spring;

import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.engine.lifecycle.EvalInstances;

/**
 * The engine's entry to Spring's TestContext framework, active only when {@code spring-test} and
 * {@code spring-context} are on the test class path.
 *
 * <p>Nothing here names a Spring type: those live in {@link SpringInstances} and the classes it uses, which are loaded
 * only once the class check has passed, so the engine runs unchanged without Spring.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SpringTestContext {

    // The engine's own loader decides: Spring visible only to the context loader could not be linked from here.
    private static final boolean AVAILABLE = present("org.springframework.test.context.TestContextManager")
            && present("org.springframework.context.ApplicationContext");

    private SpringTestContext() {
    }

    private static boolean present(String className) {
        return ReflectionSupport.tryToLoadClass(className, SpringTestContext.class.getClassLoader()).toOptional()
                .isPresent();
    }

    /** Whether Spring's TestContext framework is on the class path. */
    public static boolean available() {
        return AVAILABLE;
    }

    /**
     * Whether the eval class is annotated for Spring's TestContext framework: {@code @ContextConfiguration},
     * {@code @ContextHierarchy} or {@code @BootstrapWith} (which {@code @SpringJUnitConfig} and {@code @SpringBootTest}
     * carry), or {@code @ExtendWith(SpringExtension.class)}, directly, as meta-annotations or inherited.
     */
    public static boolean appliesTo(Class<?> evalClass) {
        return AVAILABLE && SpringAnnotations.isSpringTestClass(evalClass);
    }

    /**
     * Opens Spring's test context for one eval class: builds its {@code TestContextManager} and calls the listeners'
     * {@code beforeTestClass}.
     *
     * @param properties the run's configuration parameters, where {@code spring.test.constructor.autowire.mode} is
     *                   looked up when neither the class nor {@code spring.properties} set it (as
     *                   {@code SpringExtension} reads JUnit's configuration parameters)
     * @throws dev.agentarena.junit.engine.lifecycle.EvalInstanceException when Spring cannot bootstrap the class or a
     *                   {@code beforeTestClass} callback fails
     */
    public static EvalInstances open(Class<?> evalClass, Function<String, Optional<String>> properties) {
        return SpringInstances.open(evalClass, properties);
    }
}
