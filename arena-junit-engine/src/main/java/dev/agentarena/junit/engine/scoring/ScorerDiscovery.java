package dev.agentarena.junit.engine.scoring;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.scoring.OutputScorer;

/**
 * Finds {@link OutputScorer} classes without registration.
 *
 * <p>The rule: for an eval class in package {@code p}, every class in package {@code p} itself or in
 * {@code p.scorers} (not deeper) that implements {@link OutputScorer}, is public, concrete and top-level or static nested,
 * and has a public no-argument constructor; plus every provider listed in
 * {@code META-INF/services/dev.agentarena.junit.scoring.OutputScorer} ({@link ServiceLoader}, through the thread's context
 * class loader). Classes without a public no-argument constructor are taken for helpers the user constructs
 * and are skipped. A found class whose constructor fails is an error naming the class.
 *
 * <p>Classpath scans are cached per package and the service providers per instance, so one instance should live as
 * long as a run. Each call returns fresh scorer instances, ordered by class name (service providers last).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ScorerDiscovery {

    private static final String SUB_PACKAGE = "scorers";

    private final Map<String, List<Class<? extends OutputScorer>>> byPackage = new ConcurrentHashMap<>();
    private volatile List<Class<? extends OutputScorer>> services;

    /** The scorers an eval class can use beyond the builtins: those of its package and the service providers. */
    public List<OutputScorer> scorersFor(Class<?> evalClass) {
        return scorersIn(evalClass.getPackageName());
    }

    /** The scorers found for an eval in this package ({@code ""} for the default package). */
    public List<OutputScorer> scorersIn(String packageName) {
        Map<String, Class<? extends OutputScorer>> classes = new LinkedHashMap<>();
        for (Class<? extends OutputScorer> type : classesIn(packageName)) {
            classes.putIfAbsent(type.getName(), type);
        }
        for (Class<? extends OutputScorer> type : serviceClasses()) {
            classes.putIfAbsent(type.getName(), type);
        }
        List<OutputScorer> scorers = new ArrayList<>();
        for (Class<? extends OutputScorer> type : classes.values()) {
            scorers.add(instantiate(type));
        }
        return scorers;
    }

    /** The scorers listed as service providers alone. */
    public List<OutputScorer> providers() {
        List<OutputScorer> scorers = new ArrayList<>();
        for (Class<? extends OutputScorer> type : serviceClasses()) {
            scorers.add(instantiate(type));
        }
        return scorers;
    }

    /** The scorer classes of package {@code p} and {@code p.scorers}, cached per package. */
    public List<Class<? extends OutputScorer>> classesIn(String packageName) {
        return byPackage.computeIfAbsent(packageName, ScorerDiscovery::scan);
    }

    private static List<Class<? extends OutputScorer>> scan(String packageName) {
        String sub = packageName.isEmpty() ? SUB_PACKAGE : packageName + "." + SUB_PACKAGE;
        // The name filter runs before a class is loaded: everything outside the two packages is skipped unloaded.
        List<Class<?>> found = ReflectionSupport.findAllClassesInPackage(packageName, ScorerDiscovery::isCandidate,
                name -> {
                    String pkg = packageOf(name);
                    return pkg.equals(packageName) || pkg.equals(sub);
                });
        List<Class<? extends OutputScorer>> scorers = new ArrayList<>();
        for (Class<?> type : found) {
            scorers.add(type.asSubclass(OutputScorer.class));
        }
        scorers.sort(Comparator.comparing(Class::getName));
        return List.copyOf(scorers);
    }

    private List<Class<? extends OutputScorer>> serviceClasses() {
        List<Class<? extends OutputScorer>> result = services;
        if (result == null) {
            List<Class<? extends OutputScorer>> loaded = new ArrayList<>();
            try {
                ServiceLoader.load(OutputScorer.class).stream().forEach(provider -> loaded.add(provider.type()));
            }
            catch (ServiceConfigurationError e) {
                throw new IllegalStateException("Cannot load the scorers listed in META-INF/services/"
                        + OutputScorer.class.getName() + ": " + e.getMessage(), e);
            }
            result = List.copyOf(loaded);
            services = result;
        }
        return result;
    }

    static boolean isCandidate(Class<?> type) {
        int modifiers = type.getModifiers();
        if (!OutputScorer.class.isAssignableFrom(type) || type.isInterface() || Modifier.isAbstract(modifiers)
                || !Modifier.isPublic(modifiers) || type.isAnonymousClass() || type.isLocalClass()
                || (type.isMemberClass() && !Modifier.isStatic(modifiers))) {
            return false;
        }
        try {
            return Modifier.isPublic(type.getConstructor().getModifiers());
        }
        catch (NoSuchMethodException e) {
            return false;
        }
    }

    static OutputScorer instantiate(Class<? extends OutputScorer> type) {
        try {
            Constructor<? extends OutputScorer> constructor = type.getConstructor();
            return constructor.newInstance();
        }
        catch (InvocationTargetException e) {
            throw new IllegalStateException("Cannot create scorer " + type.getName() + ": its constructor threw "
                    + e.getCause(), e.getCause());
        }
        catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException("Cannot create scorer " + type.getName() + ": " + e, e);
        }
    }

    private static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }
}
