package dev.agentarena.junit.engine.scoring;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.engine.scoring.builtin.BuiltinScorers;
import dev.agentarena.junit.engine.scoring.catalogue.CatalogueScorers;
import dev.agentarena.junit.scoring.Scorer;

/**
 * Scorers by name: the builtins first, then those discovered on the classpath. Registering a second, different
 * scorer under a taken name is an error, so a custom scorer cannot silently replace {@code exact_match}.
 */
public final class ScorerRegistry {

    private final Map<String, ScorerDefinition> byName = new LinkedHashMap<>();
    private final Map<String, String> kinds = new LinkedHashMap<>();

    private ScorerRegistry() {
    }

    /** A registry with the builtin scorers and the catalogue. */
    public static ScorerRegistry withBuiltins() {
        ScorerRegistry registry = new ScorerRegistry();
        for (Scorer scorer : BuiltinScorers.all()) {
            registry.register(scorer, "builtin");
        }
        for (Method method : ReflectionSupport.findMethods(CatalogueScorers.class,
                m -> AnnotationSupport.isAnnotated(m, dev.agentarena.junit.Scorer.class),
                HierarchyTraversalMode.TOP_DOWN)) {
            registry.register(new MethodScorerDefinition(method, null), "catalogue");
        }
        return registry;
    }

    /** A copy to which an eval can add the scorers found next to it. */
    public synchronized ScorerRegistry copy() {
        ScorerRegistry copy = new ScorerRegistry();
        copy.byName.putAll(byName);
        copy.kinds.putAll(kinds);
        return copy;
    }

    /**
     * Adds a scorer class.
     *
     * @throws IllegalArgumentException when another class already holds the name
     */
    public synchronized void register(Scorer scorer, String kind) {
        ScorerDefinition existing = byName.get(scorer.name());
        if (existing instanceof ClassScorerDefinition
                && ((ClassScorerDefinition) existing).scorer().getClass().equals(scorer.getClass())) {
            return;
        }
        register(new ClassScorerDefinition(scorer), kind);
    }

    /**
     * Adds a scorer definition.
     *
     * @throws IllegalArgumentException when another scorer already holds the name
     */
    public synchronized void register(ScorerDefinition definition, String kind) {
        ScorerDefinition existing = byName.get(definition.name());
        if (existing != null) {
            throw new IllegalArgumentException("Scorer name '" + definition.name() + "' is claimed by both "
                    + describe(existing) + " and " + describe(definition) + "; every scorer name belongs to one scorer");
        }
        byName.put(definition.name(), definition);
        kinds.put(definition.name(), kind);
    }

    /** The scorer of that name. */
    public synchronized Optional<ScorerDefinition> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Every scorer, in registration order. */
    public synchronized Collection<ScorerDefinition> all() {
        return Collections.unmodifiableList(new ArrayList<>(byName.values()));
    }

    /** How the scorer came to be registered: {@code builtin}, {@code catalogue} or {@code custom}. */
    public synchronized String kind(String name) {
        return kinds.getOrDefault(name, "custom");
    }

    /** Every name, sorted. */
    public synchronized List<String> names() {
        List<String> names = new ArrayList<>(byName.keySet());
        names.sort(Comparator.naturalOrder());
        return names;
    }

    /** The error message for an unknown name: the known names and the nearest one. */
    public String unknownScorerMessage(String name) {
        List<String> names = names();
        String nearest = null;
        int best = Integer.MAX_VALUE;
        for (String candidate : names) {
            int distance = editDistance(name, candidate);
            if (distance < best) {
                best = distance;
                nearest = candidate;
            }
        }
        String hint = nearest != null && best <= Math.max(2, name.length() / 3) ? " Did you mean '" + nearest + "'?" : "";
        return "Unknown scorer '" + name + "'." + hint + " Known scorers: " + String.join(", ", names) + ".";
    }

    private static String describe(ScorerDefinition definition) {
        if (definition instanceof ClassScorerDefinition) {
            return ((ClassScorerDefinition) definition).scorer().getClass().getName();
        }
        if (definition instanceof MethodScorerDefinition) {
            return ArgumentResolver.describe(((MethodScorerDefinition) definition).method());
        }
        return definition.toString();
    }

    private static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
