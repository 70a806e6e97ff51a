package dev.agentarena.junit.engine.config;

import java.util.Collection;
import java.util.Optional;

/**
 * How the rest of an {@code arena.models.<key>.<name>} key splits into the model key and the setting's name, when
 * the key matches no model of the run. Model keys hold dots themselves ({@code openai:llama3.1:8b},
 * {@code openai:gpt-4.1}), and so do names ({@code price.input-per-million}), so the split is read two ways: against
 * each model key of the run, at as many dots as that key holds (a typo keeps the name whole); else, for a key the run
 * does not select, at the first dot after the last colon that a letter follows (a version's digits stay in the key).
 */
final class ModelSettingKeys {

    private ModelSettingKeys() {
    }

    /**
     * The model key the setting probably meant: {@code [written model key, suggested model key + "." + name]}, or
     * empty when no model key of the run is near the written one.
     */
    static Optional<String[]> nearest(String rest, Collection<String> modelKeys) {
        String[] best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String model : modelKeys) {
            int end = dotAfter(rest, model.chars().filter(c -> c == '.').count());
            if (end < 0 || end == rest.length() - 1) {
                continue;
            }
            String written = rest.substring(0, end);
            int distance = NearestName.editDistance(written, model);
            // a typo is a few edits of the shorter key: openai:gpt-4.1-mini is another model, not a slip of gpt-4.1
            int most = Math.max(2, Math.min(written.length(), model.length()) / 4);
            if (distance > 0 && distance < bestDistance && distance <= most) {
                bestDistance = distance;
                best = new String[] {written, model + rest.substring(end)};
            }
        }
        return Optional.ofNullable(best);
    }

    /** The model key a setting of a model the run does not select is written for. */
    static String modelKeyOf(String rest) {
        for (int dot = rest.indexOf('.', rest.lastIndexOf(':') + 1); dot > 0; dot = rest.indexOf('.', dot + 1)) {
            if (dot + 1 < rest.length() && Character.isLetter(rest.charAt(dot + 1))) {
                return rest.substring(0, dot);
            }
        }
        return rest;
    }

    /** The index of the dot after the first {@code dots} dots of the text, or -1. */
    private static int dotAfter(String text, long dots) {
        int index = -1;
        for (long i = 0; i <= dots; i++) {
            index = text.indexOf('.', index + 1);
            if (index < 0) {
                return -1;
            }
        }
        return index;
    }
}
