package dev.agentarena.junit.engine.models.recording;

import java.time.Duration;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelRequest;

/**
 * A model behind record/replay ({@code arena.cache.mode}): a recorded answer is served as replayed, free and untimed;
 * a live answer is recorded when the mode records.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RecordingModel implements ModelEndpoint {

    private final String modelKey;
    private final ModelEndpoint delegate;
    private final RecordingCache cache;

    public RecordingModel(String modelKey, ModelEndpoint delegate, RecordingCache cache) {
        this.modelKey = modelKey;
        this.delegate = delegate;
        this.cache = cache;
    }

    @Override
    public ModelAnswer answer(ModelRequest request, ModelCall call) {
        String caseId = call.forCase().map(EvalCase::id).orElse(null);
        Optional<Completion> hit = cache.replay(modelKey, caseId, call.repeat(), request);
        if (hit.isPresent()) {
            return new ModelAnswer(hit.get().withLatency(Duration.ZERO).withCostUsd(0.0), true);
        }
        ModelAnswer answer = delegate.answer(request, call);
        cache.record(modelKey, caseId, call.repeat(), request, answer.completion());
        return answer;
    }

    @Override
    public void close() {
        delegate.close();
    }
}
