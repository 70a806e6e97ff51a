package dev.agentarena.junit.engine.models;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.platform.engine.ConfigurationParameters;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;

/** Configurations and registries built from plain maps, with a substituted environment. */
public final class TestConfigurations {

    private TestConfigurations() {
    }

    public static ArenaConfiguration configuration(Path projectRoot, Map<String, String> values) {
        Map<String, String> all = new LinkedHashMap<>(values);
        all.put(Constants.PROJECT_ROOT, projectRoot.toString());
        return ArenaConfiguration.from(new MapParameters(all));
    }

    public static ModelRegistry registry(Path projectRoot, Map<String, String> values, Map<String, String> env) {
        return new ModelRegistry(configuration(projectRoot, values), name -> Optional.ofNullable(env.get(name)));
    }

    private static final class MapParameters implements ConfigurationParameters {

        private final Map<String, String> values;

        MapParameters(Map<String, String> values) {
            this.values = values;
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
}
