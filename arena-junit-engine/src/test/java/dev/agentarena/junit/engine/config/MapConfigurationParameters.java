package dev.agentarena.junit.engine.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.platform.engine.ConfigurationParameters;

/** Configuration parameters from a map, as a launcher would pass them; shared by the engine's tests. */
public final class MapConfigurationParameters implements ConfigurationParameters {

    private final Map<String, String> values;

    public MapConfigurationParameters(Map<String, String> values) {
        this.values = new LinkedHashMap<>(values);
    }

    /**
     * These parameters and more, given in pairs; a later value of a key wins.
     *
     * @param keysAndValues key, value, key, value...
     */
    public MapConfigurationParameters with(String... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values come in pairs: " + String.join(", ", keysAndValues));
        }
        Map<String, String> more = new LinkedHashMap<>(values);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            more.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new MapConfigurationParameters(more);
    }

    @Override
    public Optional<String> get(String key) {
        return Optional.ofNullable(values.get(key));
    }

    @Override
    public Optional<Boolean> getBoolean(String key) {
        return get(key).map(Boolean::parseBoolean);
    }

    @Override
    @SuppressWarnings("deprecation")
    public int size() {
        return values.size();
    }

    @Override
    public Set<String> keySet() {
        return values.keySet();
    }
}
