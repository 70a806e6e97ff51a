package dev.agentarena.junit.engine.models;

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
