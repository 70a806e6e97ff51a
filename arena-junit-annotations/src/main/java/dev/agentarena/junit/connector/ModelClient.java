package dev.agentarena.junit.connector;

import org.apiguardian.api.API;

import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/**
 * A connection to one model. Called from several threads at once.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public interface ModelClient extends AutoCloseable {

    /**
     * Answers one request.
     *
     * @throws ModelCallException when the call fails for good (after any retries of the client's own)
     */
    Completion complete(ModelRequest request);

    /** Releases connections; by default nothing. */
    @Override
    default void close() {
    }
}
