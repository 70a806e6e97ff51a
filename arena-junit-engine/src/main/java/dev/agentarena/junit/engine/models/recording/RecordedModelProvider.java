package dev.agentarena.junit.engine.models.recording;

import org.apiguardian.api.API;

import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.connector.ModelClientProvider;
import dev.agentarena.junit.connector.ModelSettings;

/**
 * Serves the model {@code recorded}, which answers each case with the {@code output} its dataset row recorded: for
 * scoring production logs or another system's outputs without calling a model.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RecordedModelProvider implements ModelClientProvider {

    /** The model key. */
    public static final String KEY = "recorded";

    @Override
    public boolean supports(String modelKey) {
        return KEY.equals(modelKey);
    }

    @Override
    public ModelClient create(String modelKey, ModelSettings settings) {
        return new RecordedModel();
    }
}
