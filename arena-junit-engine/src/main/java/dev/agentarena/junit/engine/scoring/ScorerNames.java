package dev.agentarena.junit.engine.scoring;

import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.scoring.builtin.BuiltinScorers;
import dev.agentarena.junit.engine.scoring.catalogue.CatalogueScorers;
import dev.agentarena.junit.engine.scoring.rag.RagScorers;
import dev.agentarena.junit.engine.scoring.retrieval.RetrievalScorers;
import dev.agentarena.junit.engine.scoring.redteam.RedTeamScorers;
import dev.agentarena.junit.engine.scoring.trace.TraceScorers;

/**
 * Tells, at discovery, whether an eval can use a scorer name, so that a misspelt {@code @Eval(scorers = ...)} or
 * {@code @ScorerOption(scorer = ...)} is a declaration problem of the class rather than a surprise when it runs.
 *
 * <p>Builtin, catalogue and integration (Spring AI's evaluators) names are answered from their names alone, read once
 * per JVM. Any other name needs the scorer classes found for the eval's package ({@link ScorerDiscovery}, which
 * instantiates them to learn their names): that scan happens only for such names, and once per package for the
 * lifetime of this object (one discovery).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ScorerNames {

    private final ScorerDiscovery discovery = new ScorerDiscovery();

    /**
     * Why the eval cannot use this name (the known names and the nearest one), or empty when it can, or when the
     * scorers next to the eval cannot be loaded: the run reports that itself, with the whole story.
     */
    public Optional<String> unknown(Class<?> evalClass, String name) {
        Set<String> known = new TreeSet<>(builtins());
        if (known.contains(name)) {
            return Optional.empty();
        }
        try {
            discovery.scorersFor(evalClass).forEach(scorer -> known.add(scorer.name()));
        }
        catch (RuntimeException e) {
            return Optional.empty();
        }
        return known.contains(name) ? Optional.empty()
                : Optional.of(ScorerRegistry.unknownScorerMessage(name, new ArrayList<>(known)));
    }

    /**
     * Which scorer the engine already has under this name, if any ({@code "the catalogue scorer required_facts"}): an
     * eval's {@code @Scorer} method may not take it, since the eval could then no longer name the one it shadows and
     * its results would read as that scorer's.
     */
    public static Optional<String> takenBy(String name) {
        return Optional.ofNullable(Builtins.OWNERS.get(name)).map(owner -> "the " + owner + " " + name);
    }

    /**
     * The builtin, catalogue and integration names, without building their definitions (which reads their bytecode).
     */
    private static Set<String> builtins() {
        return Builtins.OWNERS.keySet();
    }

    /** Holds the names and whose they are, read the first time they are needed. */
    private static final class Builtins {

        static final Map<String, String> OWNERS = owners();

        private static Map<String, String> owners() {
            Map<String, String> all = new TreeMap<>();
            BuiltinScorers.declarations().forEach(declared -> all.put(declared.name(), "builtin scorer"));
            CatalogueScorers.declarations().forEach(declared -> all.put(declared.name(), "catalogue scorer"));
            RagScorers.declarations().forEach(declared -> all.put(declared.name(), "RAG judge scorer"));
            RetrievalScorers.declarations().forEach(declared -> all.put(declared.name(), "builtin scorer"));
            // the red team's scorer
            RedTeamScorers.declarations().forEach(declared -> all.put(declared.name(), "red-team scorer"));
            // the trace scorers
            TraceScorers.declarations().forEach(declared -> all.put(declared.name(), "builtin scorer"));
            Integrations.scorers().forEach(scorer -> all.put(scorer.name(), "Spring AI evaluator scorer"));
            return Map.copyOf(all);
        }
    }
}
