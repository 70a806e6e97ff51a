package dev.agentarena.junit.engine.config;

import java.util.Collection;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * What a user probably meant by a name the engine does not know (a dataset field, a scorer, an option): the known
 * name at the smallest edit distance, if it is close enough to be a typo.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class NearestName {

    private NearestName() {
    }

    /** The known name nearest to {@code name}, at most {@code maxDistance} edits away. */
    public static Optional<String> among(String name, Collection<String> known, int maxDistance) {
        String nearest = null;
        int best = maxDistance + 1;
        for (String candidate : known) {
            int distance = editDistance(name, candidate);
            if (distance < best) {
                best = distance;
                nearest = candidate;
            }
        }
        return Optional.ofNullable(nearest);
    }

    /** Levenshtein distance, in two rows. */
    public static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
