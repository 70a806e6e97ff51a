package dev.agentarena.junit.engine.evaluation;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * The only things the evaluation core tells the rest of the run: a result was computed (on the call pool, before its
 * test reports it), an eval's cost was estimated, and a model has a notice for the user. The core knows nothing of
 * outputs; {@code execution/} hands these to the reporting chain.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface EvaluationEvents {

    /** A result was computed, on the thread that computed it. */
    void resultComputed(ResultRecord record, CaseTranscript transcript);

    /** An eval's cost was estimated before its first model call (only when a budget is set). */
    void costEstimated(String eval, String estimate);

    /**
     * A line a model's connector has for the user, on whatever thread called the model: a model key paused by its
     * provider, a rate limit learned or changed.
     */
    default void modelNotice(String line) {
    }
}
