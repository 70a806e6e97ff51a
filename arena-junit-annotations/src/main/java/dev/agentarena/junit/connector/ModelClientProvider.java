package dev.agentarena.junit.connector;

import org.apiguardian.api.API;

/**
 * Creates {@link ModelClient}s for the model keys it supports, typically by key prefix ({@code openai:}).
 *
 * <p>Found through {@link java.util.ServiceLoader}: list implementations in
 * {@code META-INF/services/dev.agentarena.junit.connector.ModelClientProvider}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public interface ModelClientProvider {

    /** Whether this provider serves the model key. */
    boolean supports(String modelKey);

    /** A client for the model key, configured from {@code arena.models.<key>.*}. */
    ModelClient create(String modelKey, ModelSettings settings);
}
