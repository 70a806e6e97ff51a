package dev.agentarena.junit.engine.models.judge;

import java.util.List;
import java.util.function.Consumer;

import org.apiguardian.api.API;

import dev.agentarena.junit.Judge;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;

/**
 * A {@link Judge} over a model client, always at temperature 0. When made for a case, its requests carry the case
 * and repeat, so recordings file them with the case and a simulated judge's seeded draws differ per case.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ModelJudge implements Judge {

    private final String modelKey;
    private final ModelEndpoint endpoint;
    private final ModelCall call;
    private final Consumer<Completion> onCompletion;

    public ModelJudge(String modelKey, ModelEndpoint endpoint, ModelCall call, Consumer<Completion> onCompletion) {
        this.modelKey = modelKey;
        this.endpoint = endpoint;
        this.call = call;
        this.onCompletion = onCompletion;
    }

    @Override
    public String modelKey() {
        return modelKey;
    }

    @Override
    public String ask(String instructions, String content) {
        // blank instructions send no system message: a question that carries its own instructions (a Spring AI
        // evaluator's prompt) reaches the judge as it was written
        ModelRequest request = ModelRequest.ofMessages(instructions == null || instructions.isBlank()
                ? List.of(Message.user(content))
                : List.of(Message.system(instructions), Message.user(content))).withTemperature(0);
        Completion completion = endpoint.answer(request, call).completion();
        onCompletion.accept(completion);
        return completion.text();
    }

    @Override
    public String toString() {
        return "Judge[" + modelKey + "]";
    }
}
