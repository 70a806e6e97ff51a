package dev.agentarena.junit.engine.integration.langchain4j;

import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.models.ModelPricing;
import dev.agentarena.junit.engine.models.TimedResponse;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

/**
 * A LangChain4j {@code ChatModel} as a model of an eval. The call goes through {@code ChatModel.chat}, so the
 * model's own defaults, listeners and retries apply; a failure is a {@link ModelCallException}, an error of the case
 * and never a low score.
 */
final class LangChain4jModelClient implements ModelClient {

    private final String modelKey;
    private final ChatModel model;
    private final ModelPricing pricing;

    LangChain4jModelClient(String modelKey, ChatModel model, ModelPricing pricing) {
        this.modelKey = modelKey;
        this.model = model;
        this.pricing = pricing;
    }

    @Override
    public Completion complete(ModelRequest request) {
        ChatRequest chatRequest = LangChain4jMessages.chatRequest(request, modelKey);
        TimedResponse<ChatResponse> timed = TimedResponse.of(modelKey,
                "LangChain4j " + model.getClass().getSimpleName(), () -> model.chat(chatRequest));
        Completion completion = LangChain4jMessages.completion(timed.response());
        return completion.withLatency(timed.latency()).withCostUsd(pricing.costUsd(timed.response().modelName(),
                completion.tokensIn(), completion.cachedTokensIn(), completion.tokensOut()));
    }

    @Override
    public String toString() {
        return "LangChain4jModelClient[" + modelKey + ": " + model.getClass().getName() + "]";
    }
}
