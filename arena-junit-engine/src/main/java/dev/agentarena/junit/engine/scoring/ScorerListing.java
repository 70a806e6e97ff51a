package dev.agentarena.junit.engine.scoring;

import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.engine.scoring.builtin.BuiltinScorers;
import dev.agentarena.junit.engine.scoring.catalogue.CatalogueScorers;
import dev.agentarena.junit.scoring.Scorer;

/**
 * Lists the scorers an eval can use, one per line: name, kind ({@code builtin}, {@code catalogue} or
 * {@code custom}), version and a one-line description. The Java counterpart of {@code arena scorers}.
 *
 * <pre>
 * java -cp ... dev.agentarena.junit.engine.scoring.ScorerListing [eval class or package ...]
 * </pre>
 *
 * Without arguments it lists the builtins, the catalogue and the service-loaded scorers; each argument adds the
 * scorers discovered for that eval class (its {@code @Scorer} methods included) or package.
 */
public final class ScorerListing {

    private ScorerListing() {
    }

    /** Prints the listing to standard output. */
    public static void main(String[] args) {
        print(System.out, args);
    }

    static void print(PrintStream out, String... args) {
        List<Entry> entries = entries(args);
        int nameWidth = entries.stream().mapToInt(e -> e.name().length()).max().orElse(4);
        for (Entry entry : entries) {
            out.println(String.format("%-" + nameWidth + "s  %-9s  %-12s  %s", entry.name(), entry.kind(), entry.version(),
                    entry.description()));
        }
    }

    static List<Entry> entries(String... args) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        for (Scorer scorer : BuiltinScorers.all()) {
            add(entries, new Entry(scorer.name(), "builtin", ScorerVersions.of(scorer.getClass()),
                    BuiltinScorers.description(scorer.name()).orElse("")));
        }
        Map<String, String> descriptions = CatalogueScorers.descriptions();
        for (Method method : scorerMethods(CatalogueScorers.class)) {
            String name = scoreName(method);
            add(entries, new Entry(name, "catalogue", ScorerVersions.of(method), descriptions.getOrDefault(name, "")));
        }
        ScorerDiscovery discovery = new ScorerDiscovery();
        List<Scorer> custom = new ArrayList<>(discovery.providers());
        for (String arg : args) {
            Class<?> evalClass = loadClass(arg);
            if (evalClass == null) {
                custom.addAll(discovery.scorersIn(arg));
                continue;
            }
            custom.addAll(discovery.scorersFor(evalClass));
            for (Method method : scorerMethods(evalClass)) {
                add(entries, new Entry(scoreName(method), "custom", ScorerVersions.of(method),
                        "method " + evalClass.getSimpleName() + "#" + method.getName()));
            }
        }
        for (Scorer scorer : custom) {
            add(entries, new Entry(scorer.name(), "custom", ScorerVersions.of(scorer.getClass()),
                    "class " + scorer.getClass().getName()));
        }
        return new ArrayList<>(entries.values());
    }

    private static void add(Map<String, Entry> entries, Entry entry) {
        // The first kind to claim a name wins, as in the registry, where builtins come first.
        entries.putIfAbsent(entry.name() + "\u0000" + entry.description(), entry);
    }

    private static List<Method> scorerMethods(Class<?> type) {
        List<Method> methods = new ArrayList<>(ReflectionSupport.findMethods(type,
                method -> method.isAnnotationPresent(dev.agentarena.junit.Scorer.class)
                        && !Modifier.isPrivate(method.getModifiers()),
                HierarchyTraversalMode.TOP_DOWN));
        methods.sort(Comparator.comparing(ScorerListing::scoreName));
        return methods;
    }

    private static String scoreName(Method method) {
        String value = method.getAnnotation(dev.agentarena.junit.Scorer.class).value();
        return value.isEmpty() ? method.getName() : value;
    }

    private static Class<?> loadClass(String name) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try {
            return Class.forName(name, false, loader != null ? loader : ScorerListing.class.getClassLoader());
        }
        catch (ClassNotFoundException e) {
            return null;
        }
    }

    record Entry(String name, String kind, String version, String description) {
    }
}
