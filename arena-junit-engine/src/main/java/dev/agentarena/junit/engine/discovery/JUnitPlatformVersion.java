package dev.agentarena.junit.engine.discovery;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.ReflectionSupport;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.TestEngine;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.MethodSelector;
import org.junit.platform.engine.support.descriptor.FilePosition;
import org.junit.platform.engine.support.descriptor.FileSource;

import dev.agentarena.junit.engine.definition.EvalDefinition;

/**
 * Refuses, in one clear message, a JUnit Platform older than the engine needs. Spring Boot 3.5 manages JUnit 5.12
 * (Platform 1.12): the engine, compiled against 1.14, failed to load there with a {@code ServiceConfigurationError}
 * whose cause only Surefire's dump file showed, and took every other test of the project down with it. Now the
 * engine loads on any Platform, and its discovery gives one failing test with the versions it found and the one-line
 * fix ({@code descriptor/IncompatiblePlatformDescriptor}), while the project's other engines run.
 *
 * <p>Everything it touches exists in every JUnit Platform 1.x: it must run before anything newer is loaded.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class JUnitPlatformVersion {

    /** The oldest JUnit Platform the engine runs on, and the JUnit version that brings it. */
    static final String REQUIRED_PLATFORM = "1.14";

    static final String REQUIRED_JUNIT = "5.14.4";

    private JUnitPlatformVersion() {
    }

    /**
     * What is wrong with the JUnit Platform of this run, naming the versions found and the fix, when it is older than
     * {@value #REQUIRED_PLATFORM}; empty when the engine runs on it.
     */
    public static Optional<String> problem() {
        return supported() ? Optional.empty() : Optional.of(message(version(TestEngine.class), jupiterVersion()));
    }

    /**
     * The eval classes that class and method selectors name, in order, for the failing tests of an incompatible
     * Platform; other selectors (a class-path scan) are not resolved on it.
     */
    public static List<Class<?>> selectedEvalClasses(EngineDiscoveryRequest request) {
        Set<Class<?>> classes = new LinkedHashSet<>();
        request.getSelectorsByType(ClassSelector.class).forEach(selector -> classes.add(selector.getJavaClass()));
        request.getSelectorsByType(MethodSelector.class).forEach(selector -> classes.add(selector.getJavaClass()));
        return classes.stream().filter(EvalDefinition::isEval).toList();
    }

    /** {@code FileSource.withPosition} came with Platform 1.14, the newest API the engine uses. */
    static boolean supported() {
        return ReflectionSupport.findMethod(FileSource.class, "withPosition", FilePosition.class).isPresent();
    }

    static String message(String platform, Optional<String> jupiter) {
        return "Agent Arena needs JUnit Platform " + REQUIRED_PLATFORM + " or later (JUnit 5.14+ or JUnit 6), but this "
                + "run has JUnit Platform " + platform + jupiter.map(version -> " (JUnit Jupiter " + version + ")")
                        .orElse("")
                + ". Spring Boot 3.5 manages JUnit 5.12: add <junit-jupiter.version>" + REQUIRED_JUNIT
                + "</junit-jupiter.version> to your pom's <properties> (with Gradle: ext['junit-jupiter.version'] = '"
                + REQUIRED_JUNIT + "'); without Spring Boot's parent, import org.junit:junit-bom:" + REQUIRED_JUNIT
                + " before spring-boot-dependencies. Only the evals did not run; the project's other tests did.";
    }

    private static Optional<String> jupiterVersion() {
        // a console-launcher standalone jar gives every package the Platform's version: not Jupiter's
        return ReflectionSupport.tryToLoadClass("org.junit.jupiter.api.Test").toOptional()
                .map(JUnitPlatformVersion::version).filter(version -> !version.startsWith("1."));
    }

    private static String version(Class<?> type) {
        return Optional.ofNullable(type.getPackage()).map(Package::getImplementationVersion).orElse("(unknown)");
    }
}
