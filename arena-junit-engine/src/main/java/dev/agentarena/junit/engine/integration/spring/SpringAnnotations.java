package dev.agentarena.junit.engine.integration.spring;

import java.util.Arrays;

import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.test.context.BootstrapWith;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.ContextHierarchy;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Recognises an eval class written for Spring's TestContext framework by the annotations Spring itself reads, so
 * that every composed annotation ({@code @SpringBootTest}, {@code @SpringJUnitConfig}, Boot's test slices, the
 * user's own) counts without being listed.
 */
final class SpringAnnotations {

    private static final String EXTEND_WITH = "org.junit.jupiter.api.extension.ExtendWith";
    private static final String SPRING_EXTENSION = "org.springframework.test.context.junit.jupiter.SpringExtension";

    private SpringAnnotations() {
    }

    static boolean isSpringTestClass(Class<?> evalClass) {
        return TestContextAnnotationUtils.hasAnnotation(evalClass, ContextConfiguration.class)
                || TestContextAnnotationUtils.hasAnnotation(evalClass, ContextHierarchy.class)
                || TestContextAnnotationUtils.hasAnnotation(evalClass, BootstrapWith.class)
                || extendedWithSpring(evalClass);
    }

    // By name: JUnit Jupiter's API need not be on the class path of an eval.
    private static boolean extendedWithSpring(Class<?> evalClass) {
        return MergedAnnotations.from(evalClass, SearchStrategy.TYPE_HIERARCHY).stream(EXTEND_WITH)
                .map(annotation -> annotation.asMap(MergedAnnotation.Adapt.CLASS_TO_STRING).get("value"))
                .anyMatch(value -> value instanceof String[]
                        && Arrays.asList((String[]) value).contains(SPRING_EXTENSION));
    }
}
