package dev.agentarena.junit.engine.models;

import java.time.Duration;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.model.ModelRequest;

/**
 * A model as the engine calls it: told which case a call is made for, and saying whether its answer was replayed.
 *
 * <p>The public connector contract, {@link ModelClient}, knows neither: connectors serve requests. The engine's own
 * models (simulated, {@code recorded}) and the recording cache implement this as well; any other client is adapted
 * by {@link #of(ModelClient)}, which ignores the call.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface ModelEndpoint extends AutoCloseable {

    /**
     * Answers one request made for a case.
     *
     * @throws dev.agentarena.junit.model.ModelCallException when the call fails for good
     */
    ModelAnswer answer(ModelRequest request, ModelCall call);

    /** Releases connections. */
    @Override
    void close();

    /**
     * How a model that answers calls in batches (a provider's batch API) wants to be called: many cases waiting on it
     * at once, each call parked until its batch answers. Empty for every model that answers each call as it comes.
     */
    default Optional<Batching> batching() {
        return Optional.empty();
    }

    /**
     * What the engine needs to know of a batching model to fill its batches.
     *
     * @param maxCalls how many calls one batch gathers at most: the engine lets that many wait on the model at once
     * @param longestWait how long one call may wait for its batch: added to the task's time limit, which would
     *        otherwise end a call that is only waiting its turn
     */
    record Batching(int maxCalls, Duration longestWait) {
    }

    /** The endpoint of a client: the client itself when it is one, else an adapter that ignores the call. */
    static ModelEndpoint of(ModelClient client) {
        if (client instanceof ModelEndpoint) {
            return (ModelEndpoint) client;
        }
        return new ModelEndpoint() {
            @Override
            public ModelAnswer answer(ModelRequest request, ModelCall call) {
                return ModelAnswer.live(client.complete(request));
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }
}
