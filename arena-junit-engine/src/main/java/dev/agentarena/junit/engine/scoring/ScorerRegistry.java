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

import org.apiguardian.api.API;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.engine.config.NearestName;
import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.parameters.ArgumentResolver;
import dev.agentarena.junit.engine.scoring.builtin.BuiltinScorers;
import dev.agentarena.junit.engine.scoring.catalogue.CatalogueScorers;
import dev.agentarena.junit.engine.scoring.rag.RagScorers;
import dev.agentarena.junit.engine.scoring.retrieval.RetrievalScorers;
import dev.agentarena.junit.engine.scoring.redteam.RedTeamScorers;
import dev.agentarena.junit.engine.scoring.trace.TraceScorers;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * Scorers by name: the builtins first, then those discovered on the classpath. Registering a second, different
 * scorer under a taken name is an error, so a custom scorer cannot silently replace {@code exact_match}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ScorerRegistry {

    private final Map<String, ScorerDefinition> byName = new LinkedHashMap<>();
    private final Map<String, String> kinds = new LinkedHashMap<>();

    private ScorerRegistry() {
    }

    /** A registry with the builtin scorers and the catalogue. */
    public static ScorerRegistry withBuiltins() {
        ScorerRegistry registry = new ScorerRegistry();
        for (OutputScorer scorer : BuiltinScorers.all()) {
            registry.register(scorer, "builtin");
        }
        // the RAG judge metrics
        for (OutputScorer scorer : RagScorers.all()) {
            registry.register(scorer, "builtin");
        }
        // the red team's scorer
        for (OutputScorer scorer : RedTeamScorers.all()) {
            registry.register(scorer, "builtin");
        }
        List<Method> catalogue = new ArrayList<>(ReflectionSupport.findMethods(CatalogueScorers.class,
                m -> AnnotationSupport.isAnnotated(m, Scorer.class),
                HierarchyTraversalMode.TOP_DOWN));
        // Reflection returns methods in no particular order; listings and error messages should not vary.
        catalogue.sort(Comparator.comparing(Method::getName));
        for (Method method : catalogue) {
            registry.register(new MethodScorerDefinition(method, null), "catalogue");
        }
        // the retrieval scorers (issue 42)
        List<Method> retrieval = new ArrayList<>(ReflectionSupport.findMethods(RetrievalScorers.class,
                m -> AnnotationSupport.isAnnotated(m, Scorer.class), HierarchyTraversalMode.TOP_DOWN));
        retrieval.sort(Comparator.comparing(Method::getName));
        for (Method method : retrieval) {
            registry.register(new MethodScorerDefinition(method, null), "builtin");
        }
        // the trace scorers (issue 44)
        List<Method> trace = new ArrayList<>(ReflectionSupport.findMethods(TraceScorers.class,
                m -> AnnotationSupport.isAnnotated(m, Scorer.class), HierarchyTraversalMode.TOP_DOWN));
        trace.sort(Comparator.comparing(Method::getName));
        for (Method method : trace) {
            registry.register(new MethodScorerDefinition(method, null), "builtin");
        }
        // Spring AI's evaluators, when Spring AI is on the class path
        for (OutputScorer scorer : Integrations.scorers()) {
            registry.register(scorer, "integration");
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
     * A copy with the scorer classes found for one eval ({@link ScorerDiscovery#scorersFor}) added as {@code custom}:
     * the names that eval can use. The engine and {@link ScorerListing} both build an eval's registry this way.
     *
     * @throws IllegalArgumentException when a discovered class claims a name already taken, naming both classes
     */
    public ScorerRegistry withDiscovered(List<OutputScorer> discovered) {
        ScorerRegistry registry = copy();
        for (OutputScorer scorer : discovered) {
            registry.register(scorer, "custom");
        }
        return registry;
    }

    /**
     * Adds a scorer class.
     *
     * @throws IllegalArgumentException when another class already holds the name
     */
    public synchronized void register(OutputScorer scorer, String kind) {
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
                    + kind(definition.name()) + " " + describe(existing) + " and " + kind + " " + describe(definition)
                    + "; every scorer name belongs to one scorer: rename one (override OutputScorer.name())");
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

    /**
     * How the scorer came to be registered: {@code builtin}, {@code catalogue}, {@code integration} (brought by a
     * library on the class path) or {@code custom}.
     */
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
        return unknownScorerMessage(name, names());
    }

    /** The error message for a name that is none of these (sorted) names. */
    static String unknownScorerMessage(String name, List<String> names) {
        String hint = NearestName.among(name, names, Math.max(2, name.length() / 3))
                .map(nearest -> " Did you mean '" + nearest + "'?").orElse("");
        return "Unknown scorer '" + name + "'." + hint + Integrations.unknownScorerHint(name) + " Known scorers: "
                + String.join(", ", names) + ".";
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
}
