package dev.agentarena.junit.engine.models;

import org.apiguardian.api.API;

import dev.agentarena.junit.model.Completion;

/**
 * A model's answer as the engine sees it: the completion, and whether it was replayed from a recording (then it
 * costs nothing and its latency is left out of latency statistics).
 *
 * @param completion the answer
 * @param replayed whether it came from a recording
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ModelAnswer(Completion completion, boolean replayed) {

    /** An answer from the model itself. */
    public static ModelAnswer live(Completion completion) {
        return new ModelAnswer(completion, false);
    }
}
