package dev.agentarena.junit.engine.models;

import java.util.function.Supplier;

import dev.agentarena.junit.Judge;

/**
 * Defers creating the judge's client to the first question, so a run whose scorers never ask one does not fail on
 * a misconfigured judge model, nor pay for its connection.
 */
final class LazyJudge implements Judge {

    private final String modelKey;
    private final Supplier<Judge> factory;
    private volatile Judge judge;

    LazyJudge(String modelKey, Supplier<Judge> factory) {
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
