package dev.agentarena.junit.engine.models;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.MapConfigurationParameters;
import dev.agentarena.junit.engine.models.registry.ModelRegistry;

/** Configurations and registries built from plain maps, with a substituted environment. */
public final class TestConfigurations {

    private TestConfigurations() {
    }

    public static ArenaConfiguration configuration(Path projectRoot, Map<String, String> values) {
        Map<String, String> all = new LinkedHashMap<>(values);
        all.put(Constants.PROJECT_ROOT, projectRoot.toString());
        return ArenaConfiguration.from(new MapConfigurationParameters(all));
    }

    public static ModelRegistry registry(Path projectRoot, Map<String, String> values, Map<String, String> env) {
        return new ModelRegistry(configuration(projectRoot, values), name -> Optional.ofNullable(env.get(name)));
    }
}
