package dev.agentarena.junit.engine.models;

import java.time.Duration;
import java.util.Objects;

import org.apiguardian.api.API;

import dev.agentarena.junit.model.Completion;

/**
 * A model's answer as the engine sees it: the completion, whether it was replayed from a recording (then it costs
 * nothing and its latency is left out of latency statistics), and how long the call waited for its turn under its
 * model key's rate limits before it was sent, which the completion's latency does not include.
 *
 * @param completion the answer
 * @param replayed whether it came from a recording
 * @param queued the time the call waited for its turn (zero when it did not, or for a connector that does not say)
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ModelAnswer(Completion completion, boolean replayed, Duration queued) {

    /** Checks the queue time. */
    public ModelAnswer {
        Objects.requireNonNull(queued, "queued");
    }

    /** An answer that did not wait for its turn. */
    public ModelAnswer(Completion completion, boolean replayed) {
        this(completion, replayed, Duration.ZERO);
    }

    /** An answer from the model itself. */
    public static ModelAnswer live(Completion completion) {
        return new ModelAnswer(completion, false);
    }
}
