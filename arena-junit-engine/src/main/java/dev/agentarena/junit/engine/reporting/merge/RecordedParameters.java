package dev.agentarena.junit.engine.reporting.merge;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.junit.platform.engine.ConfigurationParameters;

/**
 * The settings a shard recorded in its manifest, as configuration parameters: the merge reads its leaderboard
 * settings, gates and baseline through the same {@code ArenaConfiguration} the shards used, from what they ran with.
 */
final class RecordedParameters implements ConfigurationParameters {

    private final Map<String, String> settings;

    RecordedParameters(Map<String, String> settings) {
        this.settings = new LinkedHashMap<>(settings);
    }

    @Override
    public Optional<String> get(String key) {
        return Optional.ofNullable(settings.get(key));
    }

    @Override
    public Optional<Boolean> getBoolean(String key) {
        return get(key).map(value -> Boolean.parseBoolean(value.trim()));
    }

    @Override
    public <T> Optional<T> get(String key, Function<String, T> transformer) {
        return get(key).map(transformer);
    }

    @Override
    @Deprecated
    public int size() {
        return settings.size();
    }

    @Override
    public Set<String> keySet() {
        return settings.keySet();
    }
}
