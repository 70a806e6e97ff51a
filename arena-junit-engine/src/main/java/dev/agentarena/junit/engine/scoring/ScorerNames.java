package dev.agentarena.junit.engine.scoring;

import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Tells, at discovery, whether an eval can use a scorer name, so that a misspelt {@code @Eval(scorers = ...)} or
 * {@code @ScorerOption(scorer = ...)} is a declaration problem of the class rather than a surprise when it runs.
 *
 * <p>Builtin and catalogue names are answered from a registry built once per JVM. Any other name needs the scorer
 * classes found for the eval's package ({@link ScorerDiscovery}, which instantiates them to learn their names): that
 * scan happens only for such names, and once per package for the lifetime of this object (one discovery).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ScorerNames {

    private static volatile ScorerRegistry builtins;

    private final ScorerDiscovery discovery = new ScorerDiscovery();

    /**
     * Why the eval cannot use this name (the known names and the nearest one), or empty when it can, or when the
     * scorers next to the eval cannot be loaded: the run reports that itself, with the whole story.
     */
    public Optional<String> unknown(Class<?> evalClass, String name) {
        ScorerRegistry known = builtins();
        if (known.find(name).isPresent()) {
            return Optional.empty();
        }
        try {
            known = known.withDiscovered(discovery.scorersFor(evalClass));
        }
        catch (RuntimeException e) {
            return Optional.empty();
        }
        return known.find(name).isPresent() ? Optional.empty() : Optional.of(known.unknownScorerMessage(name));
    }

    private static ScorerRegistry builtins() {
        ScorerRegistry registry = builtins;
        if (registry == null) {
            registry = ScorerRegistry.withBuiltins();
            builtins = registry;
        }
        return registry;
    }
}
