package dev.agentarena.junit.engine.scoring;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.agentarena.junit.engine.scoring.builtin.BuiltinScorers;
import dev.agentarena.junit.scoring.Scorer;

/**
 * Scorers by name: the builtins, then those discovered on the classpath. A later registration under a builtin's name
 * is an error, so a typo cannot silently replace {@code exact_match}.
 */
public final class ScorerRegistry {

    private final Map<String, Scorer> byName = new LinkedHashMap<>();

    private ScorerRegistry() {
    }

    /** A registry with the builtin scorers. */
    public static ScorerRegistry withBuiltins() {
        ScorerRegistry registry = new ScorerRegistry();
        for (Scorer scorer : BuiltinScorers.all()) {
            registry.register(scorer);
        }
        return registry;
    }

    /**
     * Adds a scorer.
     *
     * @throws IllegalArgumentException when another class already holds the name
     */
    public synchronized void register(Scorer scorer) {
        Scorer existing = byName.get(scorer.name());
        if (existing != null && !existing.getClass().equals(scorer.getClass())) {
            throw new IllegalArgumentException("Scorer name '" + scorer.name() + "' is claimed by both "
                    + existing.getClass().getName() + " and " + scorer.getClass().getName());
        }
        byName.putIfAbsent(scorer.name(), scorer);
    }

    /** The scorer of that name. */
    public synchronized Optional<Scorer> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Every scorer, builtins first. */
    public synchronized Collection<Scorer> all() {
        return Collections.unmodifiableList(new ArrayList<>(byName.values()));
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
