package dev.agentarena.junit.engine.integration.spring;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.util.Optional;

import org.junit.platform.commons.support.ReflectionSupport;
import org.springframework.test.context.support.PropertyProvider;
import org.springframework.test.context.support.TestConstructorUtils;

/**
 * Spring's rule for whether every parameter of a test constructor is autowired, across Spring Framework versions:
 * {@code TestConstructorUtils.isAutowirableConstructor(Executable, PropertyProvider)} where it exists (6.2.13 and
 * later), else the three-argument form it replaces (6.2.12, which Spring Boot 3.5 manages), which Spring Framework 7
 * deprecates for removal.
 */
final class AutowirableConstructors {

    private static final Optional<Method> CURRENT = ReflectionSupport.findMethod(TestConstructorUtils.class,
            "isAutowirableConstructor", Executable.class, PropertyProvider.class);

    private AutowirableConstructors() {
    }

    @SuppressWarnings("removal")
    static boolean isAutowirable(Constructor<?> constructor, Class<?> testClass, PropertyProvider properties) {
        if (CURRENT.isPresent()) {
            return (Boolean) ReflectionSupport.invokeMethod(CURRENT.get(), null, constructor, properties);
        }
        return TestConstructorUtils.isAutowirableConstructor(constructor, testClass, properties);
    }
}
