package dev.agentarena.junit.engine.models;

import dev.agentarena.junit.model.ModelClient;
import dev.agentarena.junit.model.ModelClientProvider;
import dev.agentarena.junit.model.ModelSettings;

/**
 * Serves the model {@code recorded}, which answers each case with the {@code output} its dataset row recorded: for
 * scoring production logs or another system's outputs without calling a model.
 */
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
