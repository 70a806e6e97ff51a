package dev.agentarena.junit.model;

import org.apiguardian.api.API;

/**
 * The handle a {@link dev.agentarena.junit.Task} uses to call the model under evaluation.
 *
 * <p>Calls through it are timed, counted, priced, recorded and replayed by the engine.
 *
 * <pre>
 * &#64;Task
 * String answer(EvalCase evalCase, Model model) {
 *     return model.complete((String) evalCase.input()).text();
 * }
 * </pre>
 *
 * <p>{@code docs/guides/tasks.md} describes the whole API: {@link ModelRequest}, {@link Completion} and
 * {@link dev.agentarena.junit.TaskOutput}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public interface Model {

    /** The model key, e.g. {@code sim_small} or {@code openai:gpt-4o-mini}. */
    String key();

    /** Sends one user message. */
    default Completion complete(String prompt) {
        return complete(ModelRequest.ofPrompt(prompt));
    }

    /** Sends a request. */
    Completion complete(ModelRequest request);
}
