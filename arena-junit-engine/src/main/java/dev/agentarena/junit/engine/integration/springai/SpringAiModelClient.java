package dev.agentarena.junit.engine.integration.springai;

import java.util.function.Function;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.models.ModelPricing;
import dev.agentarena.junit.engine.models.TimedResponse;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/**
 * A Spring AI {@code ChatModel} or {@code ChatClient} as a model of an eval. A client's own system prompt, advisors
 * and tools apply to every case; a failure is a {@link ModelCallException}, an error of the case and never a low
 * score. A request that offers tools goes with internal tool execution disabled (1.x: in the options; 2.x: the client
 * without its tool-calling advisor), whole conversations (tool calls and results) included: the model answers with
 * its tool calls and the engine's caller (an AI service, a {@code ChatClient} on the engine's {@code ChatModel}, a
 * loop over {@code Model}) runs the tools.
 */
final class SpringAiModelClient implements ModelClient {

    /**
     * The advisor parameter that keeps a 2.x {@code ChatClient} from adding its {@code ToolCallingAdvisor}
     * ({@code ChatClientAttributes.TOOL_CALLING_ADVISOR_AUTO_REGISTER}); 1.x ignores it.
     */
    static final String TOOL_CALLING_ADVISOR_AUTO_REGISTER = "spring.ai.chat.client.tool.calling.advisor.auto-register";

    private final String modelKey;
    private final String describe;
    private final Function<Prompt, ChatResponse> call;
    private final ModelPricing pricing;

    private SpringAiModelClient(String modelKey, String describe, Function<Prompt, ChatResponse> call,
            ModelPricing pricing) {
        this.modelKey = modelKey;
        this.describe = describe;
        this.call = call;
        this.pricing = pricing;
    }

    static SpringAiModelClient of(String modelKey, ChatModel model, ModelPricing pricing) {
        return new SpringAiModelClient(modelKey, "Spring AI " + model.getClass().getSimpleName(), model::call,
                pricing);
    }

    static SpringAiModelClient of(String modelKey, ChatClient client, ModelPricing pricing) {
        return new SpringAiModelClient(modelKey, "Spring AI ChatClient", prompt -> {
            ChatClient.ChatClientRequestSpec spec = client.prompt(prompt);
            if (prompt.getOptions() instanceof ToolCallingChatOptions) {
                // the engine's caller runs the offered tools: 2.x's client must not (1.x's options already say so)
                spec = spec.advisors(advisors -> advisors.param(TOOL_CALLING_ADVISOR_AUTO_REGISTER, false));
            }
            return spec.call().chatResponse();
        }, pricing);
    }

    @Override
    public Completion complete(ModelRequest request) {
        Prompt prompt = SpringAiMessages.prompt(request, modelKey);
        TimedResponse<ChatResponse> timed = TimedResponse.of(modelKey, describe, () -> call.apply(prompt));
        Completion completion = SpringAiMessages.completion(timed.response());
        return completion.withLatency(timed.latency()).withCostUsd(pricing.costUsd(
                SpringAiMessages.reportedModel(timed.response()), completion.tokensIn(), completion.cachedTokensIn(),
                completion.tokensOut()));
    }

    @Override
    public String toString() {
        return "SpringAiModelClient[" + modelKey + ": " + describe + "]";
    }
}
