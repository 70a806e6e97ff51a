package dev.agentarena.junit.engine.evaluation;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.model.ModelClient;
import dev.agentarena.junit.model.ModelRequest;

/**
 * The {@link Model} a task receives for one case: it tags requests with the case and repeat (for simulated models
 * and recordings), adds up what the calls cost and charges it to the run's budget.
 */
final class ModelHandle implements Model {

    private final String key;
    private final ModelClient client;
    private final EvalCase evalCase;
    private final int repeat;
    private final Budget budget;

    private int calls;
    private long latencyMs;
    private boolean anyLive;
    private long tokensIn;
    private long tokensOut;
    private double costUsd;

    ModelHandle(String key, ModelClient client, EvalCase evalCase, int repeat, Budget budget) {
        this.key = key;
        this.client = client;
        this.evalCase = evalCase;
        this.repeat = repeat;
        this.budget = budget;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public Completion complete(ModelRequest request) {
        ModelRequest tagged = request.evalCase().isPresent() ? request : request.forCase(evalCase, repeat);
        budget.checkBeforeCall();
        Completion completion = client.complete(tagged);
        budget.charge(completion.costUsd());
        synchronized (this) {
            calls++;
            tokensIn += completion.tokensIn();
            tokensOut += completion.tokensOut();
            costUsd += completion.costUsd();
            if (!completion.cached()) {
                anyLive = true;
                latencyMs += completion.latency().toMillis();
            }
        }
        return completion;
    }

    synchronized CallUsage usage() {
        if (calls == 0) {
            return CallUsage.NONE;
        }
        return new CallUsage(calls, anyLive ? latencyMs : null, tokensIn, tokensOut, costUsd, !anyLive);
    }
}
