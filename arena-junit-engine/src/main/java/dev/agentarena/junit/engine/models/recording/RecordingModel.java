package dev.agentarena.junit.engine.models.recording;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;

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
 *
 * <p>It counts the calls made for each case and repeat (one {@link ModelCall} per case run, as the case's model handle
 * and judge hold it), so that a recording says which call of the case each entry answered and a replay miss in the
 * middle of an agent's loop names the call that changed. The count is weakly held: it goes with the case run.
 *
 * <p>A model that answers offline, deterministically and with no key (a simulated one) answers live in
 * {@code replay} mode a call that no recording holds, instead of failing it: its live answer is the one a recording
 * would hold, so a replayed run needs no recording of it.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RecordingModel implements ModelEndpoint {

    private final String modelKey;
    private final ModelEndpoint delegate;
    private final RecordingCache cache;
    private final boolean liveWhenUnrecorded;
    private final Map<ModelCall, AtomicInteger> calls = Collections.synchronizedMap(new WeakHashMap<>());

    public RecordingModel(String modelKey, ModelEndpoint delegate, RecordingCache cache) {
        this(modelKey, delegate, cache, false);
    }

    /**
     * @param liveWhenUnrecorded whether the model answers live, in {@code replay} mode, a call that no recording
     *        holds: for a model that needs no key and answers the same on every run (the simulated ones)
     */
    public RecordingModel(String modelKey, ModelEndpoint delegate, RecordingCache cache, boolean liveWhenUnrecorded) {
        this.modelKey = modelKey;
        this.delegate = delegate;
        this.cache = cache;
        this.liveWhenUnrecorded = liveWhenUnrecorded;
    }

    @Override
    public ModelAnswer answer(ModelRequest request, ModelCall call) {
        String caseId = call.forCase().map(EvalCase::id).orElse(null);
        int step = caseId == null ? 0 : calls.computeIfAbsent(call, c -> new AtomicInteger()).incrementAndGet();
        Optional<Completion> hit = liveWhenUnrecorded ? cache.replayIfRecorded(modelKey, caseId, call.repeat(), request)
                : cache.replay(modelKey, caseId, call.repeat(), step, request);
        if (hit.isPresent()) {
            return new ModelAnswer(hit.get().withLatency(Duration.ZERO).withCostUsd(0.0), true);
        }
        ModelAnswer answer = delegate.answer(request, call);
        cache.record(modelKey, caseId, call.repeat(), step, request, answer.completion());
        return answer;
    }

    /** The model's own: a batching model still batches the calls that are not replayed. */
    @Override
    public Optional<Batching> batching() {
        return delegate.batching();
    }

    /** The model's own estimate (a replayed call then costs nothing, and gives its reservation back). */
    @Override
    public double estimatedCostUsd(ModelRequest request) {
        return delegate.estimatedCostUsd(request);
    }

    /** The model's own: what the calls not replayed wait on. */
    @Override
    public List<String> waitingOn() {
        return delegate.waitingOn();
    }

    /** The model's own: a recorded call of a model that answers at once is a line written, not a wait. */
    @Override
    public boolean answersAtOnce() {
        return delegate.answersAtOnce();
    }

    /** The model's own: the calls not replayed are paced by it. */
    @Override
    public Optional<Pacing> pacing() {
        return delegate.pacing();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
