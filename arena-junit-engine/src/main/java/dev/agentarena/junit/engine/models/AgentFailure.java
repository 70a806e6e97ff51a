package dev.agentarena.junit.engine.models;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Optional;
import java.util.Set;

import org.apiguardian.api.API;

/**
 * A failure the evaluated model caused, which ends its case as a low score and never as an error: the agent ran into
 * the step limit, asked for a tool that does not exist or with arguments the tool cannot take, or gave no usable final
 * answer. The engine's model handle throws it at the step limit, the integrations when a chat library refuses what
 * the model sent; the case is then scored on no answer and the trajectory so far. Infrastructure faults (the network,
 * the provider, the engine, the team's own code) are never one.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class AgentFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** What the model did wrong. */
    public enum Kind {
        /** It kept calling the model past {@code arena.agent.max-steps}. */
        STEP_LIMIT,
        /** It asked for a tool that does not exist, or with arguments the tool cannot take. */
        TOOL_CALL,
        /** Its final answer was empty, or not of the shape the task parses. */
        ANSWER
    }

    private final Kind kind;

    /** @param message what the model did, in a sentence naming the case, the tool or the limit */
    public AgentFailure(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    /** @param cause what the chat library threw when it refused the model's call or answer */
    public AgentFailure(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /** What the model did wrong. */
    public Kind kind() {
        return kind;
    }

    /**
     * A chat library's message as a failure quotes it: at most 300 characters, cut with {@code …} (it may echo the
     * model's whole argument or answer).
     */
    public static String abbreviate(String message) {
        return message.length() <= 300 ? message : message.substring(0, 299) + "…";
    }

    /** The agent failure among the throwable and its causes, the outermost first; empty when there is none. */
    public static Optional<AgentFailure> in(Throwable thrown) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = thrown; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof AgentFailure failure) {
                return Optional.of(failure);
            }
        }
        return Optional.empty();
    }
}
