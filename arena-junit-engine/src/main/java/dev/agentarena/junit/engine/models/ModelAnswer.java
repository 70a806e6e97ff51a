package dev.agentarena.junit.engine.models;

import java.time.Duration;
import java.util.Objects;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.json.ToolArguments;
import dev.agentarena.junit.engine.results.SinkText;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ToolCall;

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

    /** An answer that did not wait for its turn. */
    public ModelAnswer(Completion completion, boolean replayed) {
        this(completion, replayed, Duration.ZERO);
    }

    /**
     * Checks the queue time, and refuses tool arguments nested deeper than {@link ToolArguments#MAX_DEPTH}, which a
     * model of one's own can hand over as built (an HTTP answer is held to the same by Jackson's parser): every output
     * of the case walks them, and would end in a bare {@link StackOverflowError} instead of saying what was too deep.
     */
    public ModelAnswer {
        Objects.requireNonNull(queued, "queued");
        for (ToolCall call : completion.toolCalls()) {
            if (ToolArguments.depth(call.arguments()) > ToolArguments.MAX_DEPTH) {
                throw new ModelCallException("the model's answer asks for tool '" + SinkText.name(call.name(), 80)
                        + "'" + (call.hasId() ? " (id " + SinkText.name(call.id(), 60) + ")" : "") + " with arguments "
                        + "nested more than " + ToolArguments.MAX_DEPTH + " levels deep (maps and lists in one "
                        + "another), which the engine does not take: no tool's schema nests so deep");
            }
        }
    }

    /** An answer from the model itself. */
    public static ModelAnswer live(Completion completion) {
        return new ModelAnswer(completion, false);
    }
}
