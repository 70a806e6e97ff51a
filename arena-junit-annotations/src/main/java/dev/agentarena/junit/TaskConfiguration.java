package dev.agentarena.junit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * The configuration a case runs under, as a {@link Task @Task} parameter: its name and its settings, declared with
 * {@link EvalConfiguration @EvalConfiguration}.
 *
 * <pre>{@code
 * @Task
 * List<RetrievedPassage> retrieve(String input, TaskConfiguration configuration) {
 *     return index(configuration.get("index")).search(input, configuration.getInt("top_k"));
 * }
 * }</pre>
 *
 * <p>Settings keep their declared order and are never {@code null}. A setting that is missing, or not of the asked
 * type, throws an {@link IllegalArgumentException} naming the configuration, the setting and its value: an error of
 * the case, never a low score.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class TaskConfiguration {

    private final String name;
    private final Map<String, String> settings;

    private TaskConfiguration(String name, Map<String, String> settings) {
        this.name = name;
        this.settings = settings;
    }

    /** A configuration of a name and its settings, e.g. to call a task from a test of its own. */
    public static TaskConfiguration of(String name, Map<String, String> settings) {
        Objects.requireNonNull(name, "name");
        Map<String, String> copy = new LinkedHashMap<>();
        settings.forEach((key, value) -> copy.put(Objects.requireNonNull(key, "setting key"),
                Objects.requireNonNull(value, () -> "the value of setting " + key)));
        return new TaskConfiguration(name, Collections.unmodifiableMap(copy));
    }

    /** The name, which shows where a model's key would: test names, results lines, the leaderboard. */
    public String name() {
        return name;
    }

    /** Every setting, in declared order. */
    public Map<String, String> settings() {
        return settings;
    }

    /** A setting, or empty when the configuration has none of that key. */
    public Optional<String> find(String key) {
        return Optional.ofNullable(settings.get(key));
    }

    /**
     * A setting.
     *
     * @throws IllegalArgumentException when the configuration has no such setting
     */
    public String get(String key) {
        String value = settings.get(key);
        if (value == null) {
            throw new IllegalArgumentException("configuration '" + name + "' has no setting '" + key + "' (its "
                    + "settings: " + (settings.isEmpty() ? "none" : String.join(", ", settings.keySet()))
                    + "); add \"" + key + "=...\" to its @EvalConfiguration settings");
        }
        return value;
    }

    /**
     * A setting as an {@code int}.
     *
     * @throws IllegalArgumentException when it is missing or not a whole number
     */
    public int getInt(String key) {
        String value = get(key);
        try {
            return Integer.parseInt(value.strip());
        }
        catch (NumberFormatException e) {
            throw notA("a whole number", key, value);
        }
    }

    /**
     * A setting as a {@code double}.
     *
     * @throws IllegalArgumentException when it is missing or not a finite number
     */
    public double getDouble(String key) {
        String value = get(key);
        try {
            double number = Double.parseDouble(value.strip());
            if (Double.isFinite(number)) {
                return number;
            }
        }
        catch (NumberFormatException e) {
            // reported below
        }
        throw notA("a finite number", key, value);
    }

    /**
     * A setting as a {@code boolean}: {@code true} or {@code false}, in any case.
     *
     * @throws IllegalArgumentException when it is missing or neither
     */
    public boolean getBoolean(String key) {
        String value = get(key).strip();
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw notA("true or false", key, value);
    }

    private IllegalArgumentException notA(String what, String key, String value) {
        String shown = value.length() > 80 ? value.substring(0, 80) + "..." : value;
        return new IllegalArgumentException("setting '" + key + "' of configuration '" + name + "' is '" + shown
                + "', not " + what);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TaskConfiguration that && name.equals(that.name) && settings.equals(that.settings);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, settings);
    }

    @Override
    public String toString() {
        return name + settings;
    }
}
