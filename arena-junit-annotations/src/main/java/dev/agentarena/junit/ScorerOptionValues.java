package dev.agentarena.junit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The values of one scorer's options for one case, as {@link ScoringContext#options()} gives them, with typed
 * getters: the case's {@code scorer_options}, over the eval's
 * ({@link ScorerOption @ScorerOption}, or its block in {@code arena.yaml}), over the run-wide
 * {@code scorers.options.<name>} block.
 *
 * <p>Values from {@code arena.yaml} and dataset files arrive typed; values from properties, annotations and CSV cells
 * arrive as strings and are converted. A value of the wrong type throws {@link IllegalArgumentException} naming the
 * scorer, the option, the value and, when known, where it was set ({@link #sourceOf(String)}).
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class ScorerOptionValues {

    private final String scorer;
    private final Map<String, Object> values;
    private final Map<String, String> sources;

    /** Also called by {@code dev.agentarena.junit.internal.ScorerOptionSources}, through a private lookup. */
    private ScorerOptionValues(String scorer, Map<String, ?> values, Map<String, String> sources) {
        this.scorer = scorer;
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.sources = Collections.unmodifiableMap(new LinkedHashMap<>(sources));
    }

    /** Options of the named scorer. */
    public static ScorerOptionValues of(String scorer, Map<String, ?> values) {
        return new ScorerOptionValues(scorer, values, Map.of());
    }

    /** No options. */
    public static ScorerOptionValues empty(String scorer) {
        return new ScorerOptionValues(scorer, Map.of(), Map.of());
    }

    /** The scorer these options belong to. */
    public String scorer() {
        return scorer;
    }

    /** Every option, as given. */
    public Map<String, Object> asMap() {
        return values;
    }

    /** Whether the option is set. */
    public boolean contains(String name) {
        return values.get(name) != null;
    }

    /** The raw value. */
    public Optional<Object> get(String name) {
        return Optional.ofNullable(values.get(name));
    }

    /** Where the option was set, when known: a file and line, an annotation, a case, a property. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public Optional<String> sourceOf(String name) {
        return Optional.ofNullable(sources.get(name));
    }

    /**
     * The error for an option whose value the scorer cannot use, naming the scorer, the option, the value and where
     * it was set: {@code option 'pick' of scorer 'numeric' must be first or last, but was "middle" (in
     * /p/arena.yaml, line 4)}. Scorers throw it to report the case as an error, never as a low score.
     *
     * @param expected what the value must be, e.g. {@code "first or last"} or {@code "a number >= 0"}
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public IllegalArgumentException invalid(String name, String expected) {
        return wrongType(name, values.get(name), expected);
    }

    /**
     * The error for an option the scorer cannot work without and that is set nowhere, naming the scorer, the option,
     * what it is for and where to set it: for the run ({@code scorers.options.<scorer>.<option>} in
     * {@code arena.yaml}, or the property {@code arena.scorers.options.<scorer>.<option>}), for the eval
     * ({@code @ScorerOption}) or for a case ({@code scorer_options}). Every case shares the problem, so the engine
     * reports it once (see {@link MissingScorerOptionException}).
     *
     * @param what what the option holds, e.g. {@code "the labels the output may select"}
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public MissingScorerOptionException missing(String name, String what) {
        return new MissingScorerOptionException(scorer, name, "scorer '" + scorer + "' needs option '" + name + "' ("
                + what + "), which is set nowhere: set it for the run (scorers: {options: {" + scorer + ": {" + name
                + ": ...}}} in arena.yaml, or -Darena.scorers.options." + scorer + "." + name + "=...), for the eval"
                + " (@ScorerOption(scorer = \"" + scorer + "\", name = \"" + name + "\", value = ...)) or for a case"
                + " (scorer_options: {\"" + scorer + "\": {\"" + name + "\": ...}})");
    }

    /** A string option, or the default (which may be {@code null}) when it is not set. */
    public @Nullable String getString(String name, @Nullable String defaultValue) {
        Object value = values.get(name);
        return value == null ? defaultValue : String.valueOf(value);
    }

    /** A numeric option. */
    public double getDouble(String name, double defaultValue) {
        Object value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (value instanceof Number) {
            return ((Number) value).doubleValue();
        }
        try {
            return Double.parseDouble(String.valueOf(value).trim());
        }
        catch (NumberFormatException e) {
            throw wrongType(name, value, "a number");
        }
    }

    /** A whole-number option. */
    public int getInt(String name, int defaultValue) {
        double value = getDouble(name, defaultValue);
        if (value != Math.rint(value) || Math.abs(value) > Integer.MAX_VALUE) {
            throw wrongType(name, values.get(name), "a whole number");
        }
        return (int) value;
    }

    /** A boolean option: {@code true} or {@code false}. */
    public boolean getBoolean(String name, boolean defaultValue) {
        Object value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (value instanceof Boolean) {
            return (Boolean) value;
        }
        String text = String.valueOf(value).trim();
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        throw wrongType(name, value, "true or false");
    }

    /** A list of strings: a YAML list, or a comma-separated string. */
    public List<String> getStringList(String name, List<String> defaultValue) {
        Object value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        List<String> result = new ArrayList<>();
        if (value instanceof Iterable) {
            for (Object item : (Iterable<?>) value) {
                result.add(String.valueOf(item));
            }
        }
        else if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            for (String part : String.valueOf(value).split(",")) {
                if (!part.isBlank()) {
                    result.add(part.trim());
                }
            }
        }
        else {
            throw wrongType(name, value, "a list of strings");
        }
        return Collections.unmodifiableList(result);
    }

    private IllegalArgumentException wrongType(String name, @Nullable Object value, String expected) {
        String source = sources.get(name);
        return new IllegalArgumentException("option '" + name + "' of scorer '" + scorer + "' must be " + expected
                + ", but was " + describe(value) + (source == null ? "" : " (" + source + ")"));
    }

    private static String describe(@Nullable Object value) {
        if (value == null) {
            return "not set";
        }
        return value instanceof String ? "\"" + value + "\"" : value + " (" + value.getClass().getSimpleName() + ")";
    }

    @Override
    public String toString() {
        return scorer + values;
    }
}
