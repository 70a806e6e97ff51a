package dev.agentarena.junit.engine.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import dev.agentarena.junit.engine.Constants;

/**
 * The keys the engine knows: every {@code arena.*} constant of {@link Constants}, read from the class itself so that
 * a key added there is known everywhere. A constant ending in {@code .} is a prefix below which anything goes (model
 * keys, scorer options, metric names, gate selectors).
 */
final class KnownKeys {

    private static final Set<String> KEYS = new TreeSet<>();
    private static final List<String> PREFIXES = new ArrayList<>();

    static {
        for (Field field : Constants.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                String value = value(field);
                if (!value.startsWith(Constants.PREFIX) || value.equals(Constants.PREFIX)) {
                    continue;
                }
                if (value.endsWith(".")) {
                    PREFIXES.add(value);
                    KEYS.add(value.substring(0, value.length() - 1));
                }
                else {
                    KEYS.add(value);
                }
            }
        }
    }

    private KnownKeys() {
    }

    private static String value(Field field) {
        try {
            return (String) field.get(null);
        }
        catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Whether the engine reads the key: a known key, a key below a known prefix, or the parent of known keys (a
     * mapping in {@code arena.yaml} such as {@code output:} above {@code output.dir}).
     */
    static boolean isKnown(String key) {
        if (KEYS.contains(key)) {
            return true;
        }
        if (key.startsWith(Constants.EVALS_PREFIX)) {
            return isEvalKey(key.substring(Constants.EVALS_PREFIX.length()));
        }
        for (String prefix : PREFIXES) {
            if (key.startsWith(prefix) && key.length() > prefix.length()) {
                return true;
            }
        }
        String parent = key + ".";
        return KEYS.stream().anyMatch(known -> known.startsWith(parent));
    }

    /**
     * Below {@code arena.evals.} only an eval's scorer options and configurations are read: {@code <eval>},
     * {@code <eval>.scorers}, {@code <eval>.scorers.options} and {@code <eval>.scorers.options.<scorer>[.<option>]};
     * {@code <eval>.configurations} and {@code <eval>.configurations.<name>[.<setting>]}.
     */
    private static boolean isEvalKey(String rest) {
        if (rest.isEmpty()) {
            return false;
        }
        return !rest.contains(".") || rest.endsWith(".scorers") || rest.endsWith(".scorers.options")
                || rest.contains(".scorers.options.") && !rest.endsWith(".")
                || rest.endsWith(CONFIGURATIONS) || rest.contains(CONFIGURATIONS + ".") && !rest.endsWith(".");
    }

    /** What follows an eval's name in the keys of the configurations it compares. */
    private static final String CONFIGURATIONS = "." + Constants.EVAL_CONFIGURATIONS;

    /** The known key nearest to an unknown one, if it looks like a typo of it. */
    static Optional<String> nearest(String key) {
        if (key.startsWith(Constants.EVALS_PREFIX)) {
            return Optional.of(Constants.EVALS_PREFIX + "<eval>.scorers.options.<scorer>.<option>");
        }
        return NearestName.among(key, KEYS, Math.max(2, key.length() / 5));
    }
}
