package dev.agentarena.junit.engine.secrets;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;

/**
 * The secrets the model settings point to: every {@code arena.models.<key>.api-key-env} (a variable's name) and every
 * value of {@code arena.models.<key>.headers}, wherever they are set: launcher parameters,
 * {@code junit-platform.properties}, system properties or {@code arena.yaml}'s {@code models:} mapping.
 */
final class ModelSecrets {

    private static final String KEY_ENV = "api-key-env";
    private static final String HEADERS = "headers";

    private ModelSecrets() {
    }

    /** Adds the variables' names to {@code names} and the literal secrets to {@code values}. */
    static void collect(ArenaConfiguration configuration, Collection<String> names, Collection<String> values) {
        Set<String> keys = new LinkedHashSet<>(configuration.parameterKeys());
        keys.addAll(System.getProperties().stringPropertyNames());
        for (String key : keys) {
            if (!key.startsWith(Constants.MODEL_SETTINGS_PREFIX)) {
                continue;
            }
            if (key.endsWith("." + KEY_ENV)) {
                configuration.get(key).filter(name -> !name.isBlank()).ifPresent(names::add);
            }
            else if (key.endsWith("." + HEADERS)) {
                configuration.get(key).ifPresent(text -> headerValues(text, values));
            }
        }
        // arena.yaml: models: {"openai:x": {api-key-env: X_KEY, headers: ...}}
        Map<String, Object> models = configuration.section(Constants.MODELS);
        for (Object settings : models.values()) {
            if (settings instanceof Map) {
                Map<?, ?> map = (Map<?, ?>) settings;
                Object keyEnv = map.get(KEY_ENV);
                if (keyEnv != null && !String.valueOf(keyEnv).isBlank()) {
                    names.add(String.valueOf(keyEnv).trim());
                }
                Object headers = map.get(HEADERS);
                if (headers instanceof Map) {
                    ((Map<?, ?>) headers).values().forEach(value -> values.add(String.valueOf(value)));
                }
                else if (headers instanceof List) {
                    ((List<?>) headers).forEach(item -> headerValues(String.valueOf(item), values));
                }
                else if (headers != null) {
                    headerValues(String.valueOf(headers), values);
                }
            }
        }
    }

    /** The values of {@code Name=Value} pairs, comma-separated, as the connector reads them. */
    private static void headerValues(String text, Collection<String> values) {
        for (String part : text.split(",")) {
            int equals = part.indexOf('=');
            if (equals > 0) {
                values.add(part.substring(equals + 1).trim());
            }
        }
    }
}
