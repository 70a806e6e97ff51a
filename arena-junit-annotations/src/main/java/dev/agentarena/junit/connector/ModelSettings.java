package dev.agentarena.junit.connector;

import java.util.Optional;

import org.apiguardian.api.API;

/**
 * The configuration a {@link ModelClientProvider} reads. Environment variables, such as an API key, a connector
 * reads itself ({@link System#getenv(String)}).
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public interface ModelSettings {

    /** {@code arena.models.<key>.<name>}, e.g. {@code base-url}. */
    Optional<String> get(String name);

    /** Any configuration key, e.g. {@code arena.seed}. */
    Optional<String> global(String key);
}
