package dev.agentarena.junit.engine.models;

import java.util.List;
import java.util.function.Consumer;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.Judge;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelClient;
import dev.agentarena.junit.model.ModelRequest;

/**
 * A {@link Judge} over a model client, always at temperature 0. When made for a case, its requests carry the case
 * and repeat, so recordings file them with the case and a simulated judge's seeded draws differ per case.
 */
final class ModelJudge implements Judge {

    private final String modelKey;
    private final ModelClient client;
    private final EvalCase evalCase;
    private final int repeat;
    private final Consumer<Completion> onCompletion;

    ModelJudge(String modelKey, ModelClient client, EvalCase evalCase, int repeat, Consumer<Completion> onCompletion) {
        this.modelKey = modelKey;
        this.client = client;
        this.evalCase = evalCase;
        this.repeat = repeat;
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
        if (evalCase != null) {
            request = request.forCase(evalCase, repeat);
        }
        Completion completion = client.complete(request);
        onCompletion.accept(completion);
        return completion.text();
    }

    @Override
    public String toString() {
        return "Judge[" + modelKey + "]";
    }
}
