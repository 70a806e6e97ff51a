package dev.agentarena.junit.engine.models;

import java.time.Duration;
import java.util.function.Supplier;

import org.apiguardian.api.API;

import dev.agentarena.junit.model.ModelCallException;

/**
 * The response of one call to a model the engine does not connect itself (a LangChain4j or Spring AI chat model), and
 * how long it took. Called through {@link #of}, a failure of the library, or a call that returns nothing, is a
 * {@link ModelCallException} naming the model key and what was called: an error of the case, never a low score.
 *
 * @param response what the library returned; never {@code null}
 * @param latency the wall time of the call
 * @param <R> the library's response type
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record TimedResponse<R>(R response, Duration latency) {

    /**
     * Makes the call and times it.
     *
     * @param called what is called, for messages: {@code LangChain4j OpenAiChatModel}, {@code Spring AI ChatClient}
     * @throws ModelCallException when the call fails or returns {@code null}
     */
    public static <R> TimedResponse<R> of(String modelKey, String called, Supplier<R> call) {
        long start = System.nanoTime();
        R response;
        try {
            response = call.get();
        }
        catch (ModelCallException e) {
            throw e;
        }
        catch (RuntimeException e) {
            throw new ModelCallException(modelKey + ": the " + called + " call failed: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()), e);
        }
        Duration latency = Duration.ofNanos(System.nanoTime() - start);
        if (response == null) {
            throw new ModelCallException(modelKey + ": the " + called + " returned no response");
        }
        return new TimedResponse<>(response, latency);
    }
}
