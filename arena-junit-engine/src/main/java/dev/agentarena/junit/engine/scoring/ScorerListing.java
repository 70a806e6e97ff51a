package dev.agentarena.junit.engine.scoring;

import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration;

/**
 * Lists the scorers an eval can use, one per line: name, kind ({@code builtin}, {@code catalogue},
 * {@code integration} or {@code custom}), version and a one-line description. The Java counterpart of {@code arena scorers}.
 *
 * <pre>
 * java -cp ... dev.agentarena.junit.engine.scoring.ScorerListing [eval class or package ...]
 * </pre>
 *
 * Without arguments it lists the builtins, the catalogue and the service-loaded scorers; each argument adds the
 * scorers discovered for that eval class (its {@code @Scorer} methods included) or for an eval in that package. The
 * names come from the registry the engine builds for an eval ({@link ScorerRegistry#withDiscovered}), so a scorer
 * class claiming a taken name fails the listing exactly as it fails the eval.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ScorerListing {

    private ScorerListing() {
    }

    /**
     * Prints the listing to standard output.
     *
     * @throws IllegalArgumentException when two scorers claim one name, naming both
     */
    public static void main(String[] args) {
        print(System.out, args);
    }

    static void print(PrintStream out, String... args) {
        List<Entry> entries = entries(args);
        int nameWidth = entries.stream().mapToInt(e -> e.name().length()).max().orElse(4);
        for (Entry entry : entries) {
            out.println(String.format("%-" + nameWidth + "s  %-11s  %-12s  %s", entry.name(), entry.kind(), entry.version(),
                    entry.description()));
        }
    }

    static List<Entry> entries(String... args) {
        ScorerDiscovery discovery = new ScorerDiscovery();
        ScorerRegistry builtins = ScorerRegistry.withBuiltins();
        Map<String, Entry> entries = new LinkedHashMap<>();
        addAll(entries, builtins.withDiscovered(discovery.providers()));
        for (String arg : args) {
            Class<?> evalClass = loadClass(arg);
            if (evalClass == null) {
                addAll(entries, builtins.withDiscovered(discovery.scorersIn(arg)));
                continue;
            }
            addAll(entries, builtins.withDiscovered(discovery.scorersFor(evalClass)));
            for (Method method : scorerMethods(evalClass)) {
                MethodScorerDefinition scorer = new MethodScorerDefinition(method, null);
                add(entries, new Entry(scorer.name(), "custom", scorer.version(),
                        "method " + evalClass.getSimpleName() + "#" + method.getName()));
            }
        }
        return new ArrayList<>(entries.values());
    }

    private static void addAll(Map<String, Entry> entries, ScorerRegistry registry) {
        for (ScorerDefinition scorer : registry.all()) {
            String kind = registry.kind(scorer.name());
            String description;
            if (scorer instanceof ClassScorerDefinition && kind.equals("custom")) {
                description = "class " + ((ClassScorerDefinition) scorer).scorer().getClass().getName();
            }
            else {
                description = ScorerDeclarations.of(scorer.name()).map(ScorerDeclaration::description)
                        .or(() -> Integrations.scorerDescription(scorer.name())).orElse("");
            }
            add(entries, new Entry(scorer.name(), kind, scorer.version(), description));
        }
    }

    private static void add(Map<String, Entry> entries, Entry entry) {
        // Evals in different packages may each have their own scorer of one name: list each once.
        entries.putIfAbsent(entry.name() + "\u0000" + entry.description(), entry);
    }

    /** The eval class's {@code @Scorer} methods, found as the engine finds them. */
    private static List<Method> scorerMethods(Class<?> type) {
        List<Method> methods = new ArrayList<>(ReflectionSupport.findMethods(type,
                method -> AnnotationSupport.isAnnotated(method, Scorer.class),
                HierarchyTraversalMode.TOP_DOWN));
        methods.sort(Comparator.comparing(Method::getName));
        return methods;
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
