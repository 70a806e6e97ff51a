package dev.agentarena.junit.model;

/**
 * A connection to one model. Called from several threads at once.
 */
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
