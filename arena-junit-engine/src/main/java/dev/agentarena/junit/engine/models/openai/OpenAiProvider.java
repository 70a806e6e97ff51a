package dev.agentarena.junit.engine.models.openai;

import org.apiguardian.api.API;

import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.connector.ModelClientProvider;
import dev.agentarena.junit.connector.ModelSettings;

/**
 * Serves {@code openai:<model>} keys with any OpenAI-compatible Chat Completions endpoint: OpenAI, Azure OpenAI,
 * Ollama, vLLM, the llama.cpp server, LM Studio; through the batch API with {@code batch=true}. See {@code docs/guides/models.md} for the settings.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class OpenAiProvider implements ModelClientProvider {

    static final String PREFIX = "openai:";

    @Override
    public boolean supports(String modelKey) {
        return modelKey.startsWith(PREFIX) && modelKey.length() > PREFIX.length();
    }

    @Override
    public ModelClient create(String modelKey, ModelSettings settings) {
        OpenAiSettings live = OpenAiSettings.from(modelKey, settings);
        BatchSettings batch = BatchSettings.from(modelKey, settings);
        return batch.enabled() ? new BatchingModel(live, batch) : new OpenAiClient(live);
    }
}
