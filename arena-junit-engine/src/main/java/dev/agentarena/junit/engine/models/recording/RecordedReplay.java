package dev.agentarena.junit.engine.models.recording;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.model.Trajectory;

/**
 * What the {@code recorded} model replays besides a case's output: the trajectory, retrieved passages and spans its
 * recorded run left ({@link EvalCase#recordedTrajectory()}, read from a trace export or a dataset row), so that the
 * trajectory, retrieval and span scorers grade the recorded run as they would a live one. Any other model, and a case
 * that recorded nothing, is left as it ran.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class RecordedReplay {

    private RecordedReplay() {
    }

    /** The trajectory the case's scorers see: the recorded one, for the {@code recorded} model, when there is one. */
    public static Trajectory trajectory(String modelKey, EvalCase evalCase, Trajectory ran) {
        return RecordedModelProvider.KEY.equals(modelKey) && !evalCase.recordedTrajectory().isEmpty()
                ? evalCase.recordedTrajectory() : ran;
    }

    /**
     * The output with the recorded passages and spans, for the {@code recorded} model, where the run reported none of
     * its own (a task may still retrieve, and its own passages win).
     */
    public static TaskOutput output(String modelKey, EvalCase evalCase, TaskOutput output) {
        if (!RecordedModelProvider.KEY.equals(modelKey)) {
            return output;
        }
        TaskOutput replayed = output;
        if (replayed.retrieved().isEmpty() && !evalCase.recordedRetrieved().isEmpty()) {
            replayed = replayed.withRetrieved(evalCase.recordedRetrieved());
        }
        if (replayed.spans().isEmpty() && !evalCase.recordedSpans().isEmpty()) {
            replayed = replayed.withSpans(evalCase.recordedSpans());
        }
        return replayed;
    }
}
