package dev.agentarena.junit.engine.models;

import java.time.Duration;
import java.util.List;
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

    /**
     * What a call of a batching model may cost at most, estimated before it is parked, at the batch price: reserved
     * against the run's budget, so that the calls of a batch that would pass it together wait instead of being sent.
     * 0 for a model that answers each call as it comes (the budget is checked before each of its calls).
     */
    default double estimatedCostUsd(ModelRequest request) {
        return 0;
    }

    /**
     * What the model's calls wait on now, one line each (a batch's progress: {@code batch batch_abc: 400/1000 done,
     * in_progress, 2m 05s elapsed}), for the console's progress while no case is answered. Empty for a model whose
     * calls are answered as they come.
     */
    default List<String> waitingOn() {
        return List.of();
    }

    /**
     * How a model that paces its own calls to its provider's limits (an {@code openai:} key, which learns them from
     * the responses' headers) wants to be called: with as many cases waiting on it as its pace needs, which may be
     * more than {@code arena.concurrency}. Empty for every model that is called as fast as the engine's pool goes.
     */
    default Optional<Pacing> pacing() {
        return Optional.empty();
    }

    /**
     * What the engine needs to know of a self-paced model to keep it busy without queueing cases on it for long.
     * Asked again and again during a run: the answer follows what the model learned.
     */
    interface Pacing {

        /**
         * How many calls the model could use in flight now to reach its pace (the learned rate times the round
         * trip, with a margin), at most {@link #mostInFlight()}; 0 while it has learned no limit, when the engine's
         * own concurrency is the bound.
         */
        int inFlightWanted();

        /** The most calls it may ever have in flight: its {@code max-concurrency}, else a generous bound. */
        int mostInFlight();
    }

    /**
     * Whether the model answers from what its call already holds, waiting on nothing (the {@code recorded} model: the
     * case's row has the output). Evaluating such a model's case is computation alone, so the engine runs as many of
     * them at once as the machine has cores rather than {@code arena.concurrency}, which is sized for calls that
     * wait. False for every model that calls a provider, sleeps (the simulated ones) or runs user code.
     */
    default boolean answersAtOnce() {
        return false;
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
