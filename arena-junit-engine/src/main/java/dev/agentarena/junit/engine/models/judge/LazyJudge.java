package dev.agentarena.junit.engine.models.judge;

import java.util.function.Supplier;

import org.apiguardian.api.API;

import dev.agentarena.junit.Judge;

/**
 * Defers creating the judge's client to the first question, so a run whose scorers never ask one does not fail on
 * a misconfigured judge model, nor pay for its connection.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LazyJudge implements Judge {

    private final String modelKey;
    private final Supplier<Judge> factory;
    private volatile Judge judge;

    public LazyJudge(String modelKey, Supplier<Judge> factory) {
        this.modelKey = modelKey;
        this.factory = factory;
    }

    @Override
    public String modelKey() {
        return modelKey;
    }

    @Override
    public String ask(String instructions, String content) {
        Judge current = judge;
        if (current == null) {
            current = factory.get();
            judge = current;
        }
        return current.ask(instructions, content);
    }
}
