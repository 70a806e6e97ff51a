package dev.agentarena.junit.engine.models.recording;

import java.time.Duration;
import java.util.Optional;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelClient;
import dev.agentarena.junit.model.ModelRequest;

/** A model client behind recordings: a hit is served as {@link Completion#asCached()}, free and untimed. */
final class RecordingModelClient implements ModelClient {

    private final String modelKey;
    private final ModelClient delegate;
    private final CacheMode mode;
    private final RecordingCache cache;

    RecordingModelClient(String modelKey, ModelClient delegate, CacheMode mode, RecordingCache cache) {
        this.modelKey = modelKey;
        this.delegate = delegate;
        this.mode = mode;
        this.cache = cache;
    }

    @Override
    public Completion complete(ModelRequest request) {
        String caseId = request.evalCase().map(EvalCase::id).orElse(RecordingCache.NO_CASE);
        RecordingFile file = cache.file(modelKey, caseId);
        RecordingFile.Key key = new RecordingFile.Key(RequestDigest.of(request), request.repeat());
        if (mode != CacheMode.RECORD) {
            Optional<Completion> hit = file.find(key);
            if (hit.isPresent()) {
                return hit.get().withLatency(Duration.ZERO).asCached();
            }
            if (mode == CacheMode.REPLAY) {
                throw new ModelCallException("No recording of model '" + modelKey + "' for case '"
                        + request.evalCase().map(EvalCase::id).orElse("(none)") + "', repeat " + request.repeat()
                        + " (request digest " + key.digest() + ") in " + file.path() + ". The prompt or parameters "
                        + "may have changed since it was recorded. Record it with -Darena.cache.mode=record (or "
                        + "read-write to record only what is missing), and commit the recording.");
            }
        }
        Completion completion = delegate.complete(request);
        file.store(key, RequestDigest.describe(request), completion);
        return completion;
    }

    @Override
    public void close() {
        delegate.close();
    }
}
