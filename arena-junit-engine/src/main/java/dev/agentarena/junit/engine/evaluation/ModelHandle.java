package dev.agentarena.junit.engine.evaluation;

import java.util.function.BooleanSupplier;
import java.util.function.Function;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/**
 * The {@link Model} a task receives for one case: it tags requests with the case and repeat (for simulated models
 * and recordings), adds up what the calls cost and charges it to the run's budget.
 */
final class ModelHandle implements Model {

    private final String key;
    private final ModelEndpoint endpoint;
    private final ModelCall call;
    private final Budget budget;
    private final BooleanSupplier live;

    private int calls;
    private long latencyMs;
    private boolean anyLive;
    private long tokensIn;
    private long tokensOut;
    private double costUsd;

    /**
     * @param live whether the case still wants calls: not once its task ran past its limit and was given up
     * @param scorerOptions the options each scorer reads for the case, for simulated models that answer in their shape
     */
    ModelHandle(String key, ModelEndpoint endpoint, EvalCase evalCase, int repeat, Budget budget,
            BooleanSupplier live, Function<String, ScorerOptionValues> scorerOptions) {
        this.key = key;
        this.endpoint = endpoint;
        this.call = new ModelCall(evalCase, repeat, scorerOptions);
        this.budget = budget;
        this.live = live;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public Completion complete(ModelRequest request) {
        if (!live.getAsBoolean()) {
            throw new ModelCallException("case '" + call.evalCase().id() + "' ran past its time limit and was given "
                    + "up: its task may not call " + key + " any more");
        }
        budget.checkBeforeCall();
        ModelAnswer answer = endpoint.answer(request, call);
        Completion completion = answer.completion();
        budget.charge(completion.costUsd());
        synchronized (this) {
            calls++;
            tokensIn += completion.tokensIn();
            tokensOut += completion.tokensOut();
            costUsd += completion.costUsd();
            if (!answer.replayed()) {
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
