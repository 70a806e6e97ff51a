package dev.agentarena.junit.engine.models;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

import org.apiguardian.api.API;

import dev.agentarena.junit.connector.ModelSettings;

/**
 * The {@link ModelSettings} the engine hands to providers, together with the environment the run reads variables
 * from and where a connector's notices go. Both are engine plumbing rather than SPI: tests substitute their own (an
 * API key that is not the machine's), and the engine's own connectors read them through
 * {@link #environment(ModelSettings, String)} and {@link #notices(ModelSettings)}, while other connectors read
 * {@link System#getenv(String)} as any library does.
 *
 * @param settings {@code arena.models.<key>.<name>} by name
 * @param configuration any configuration key
 * @param environment environment variables by name
 * @param notices where a line the user should see goes (the run's console): a model key paused by its provider
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record EngineModelSettings(Function<String, Optional<String>> settings,
        Function<String, Optional<String>> configuration, Function<String, Optional<String>> environment,
        Consumer<String> notices) implements ModelSettings {

    /** Checks the parts. */
    public EngineModelSettings {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(configuration, "configuration");
        Objects.requireNonNull(environment, "environment");
        Objects.requireNonNull(notices, "notices");
    }

    /** Settings whose notices go nowhere. */
    public EngineModelSettings(Function<String, Optional<String>> settings,
            Function<String, Optional<String>> configuration, Function<String, Optional<String>> environment) {
        this(settings, configuration, environment, line -> { });
    }

    @Override
    public Optional<String> get(String name) {
        return settings.apply(name);
    }

    @Override
    public Optional<String> global(String key) {
        return configuration.apply(key);
    }

    /**
     * An environment variable as the run sees it: from the engine's environment when the settings are the engine's,
     * from the process otherwise (settings a test or another tool made).
     */
    public static Optional<String> environment(ModelSettings settings, String name) {
        return settings instanceof EngineModelSettings engine ? engine.environment().apply(name)
                : Optional.ofNullable(System.getenv(name));
    }

    /** Where the run's notices go: the engine's when the settings are the engine's, nowhere otherwise. */
    public static Consumer<String> notices(ModelSettings settings) {
        return settings instanceof EngineModelSettings engine ? engine.notices() : line -> { };
    }
}
