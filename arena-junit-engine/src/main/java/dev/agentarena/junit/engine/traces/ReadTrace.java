package dev.agentarena.junit.engine.traces;

import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

import dev.agentarena.junit.EvalCase;

/**
 * One trace of a trace export as read: the case it became, or what is wrong with it, with where it starts.
 *
 * @param caseId the case's id, also for a bad trace (its trace id, or {@code <file>:<line>} when it has none)
 * @param evalCase the case, {@code null} for a bad trace
 * @param error what is wrong, naming the span (and the line or byte offset where the message says), {@code null}
 *     for a good trace
 * @param line the line of the trace's first span (JSON), or 1 for a binary file
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public record ReadTrace(String caseId, @Nullable EvalCase evalCase, @Nullable String error, int line) {

    /** Checks that exactly one of case and error is given. */
    public ReadTrace {
        Objects.requireNonNull(caseId, "caseId");
        if ((evalCase == null) == (error == null)) {
            throw new IllegalArgumentException("a read trace is a case or an error, not both or neither");
        }
    }

    /** What is wrong with the trace, if anything. */
    public Optional<String> problem() {
        return Optional.ofNullable(error);
    }
}
