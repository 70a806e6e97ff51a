package dev.agentarena.junit.engine.models.openai;

import dev.agentarena.junit.model.ModelClient;
import dev.agentarena.junit.model.ModelClientProvider;
import dev.agentarena.junit.model.ModelSettings;

/**
 * Serves {@code openai:<model>} keys with any OpenAI-compatible Chat Completions endpoint: OpenAI, Azure OpenAI,
 * Ollama, vLLM, the llama.cpp server, LM Studio. See {@code docs/guides/models.md} for the settings.
 */
public final class OpenAiProvider implements ModelClientProvider {

    static final String PREFIX = "openai:";

    @Override
    public boolean supports(String modelKey) {
        return modelKey.startsWith(PREFIX) && modelKey.length() > PREFIX.length();
    }

    @Override
    public ModelClient create(String modelKey, ModelSettings settings) {
        return new OpenAiClient(OpenAiSettings.from(modelKey, settings));
    }
}
