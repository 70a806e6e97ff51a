package dev.agentarena.junit.engine.evaluation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.Trajectory;
import dev.agentarena.junit.model.Turn;

/**
 * The {@link Model} a task receives for one case: it tags requests with the case and repeat (for simulated models
 * and recordings), adds up what the calls cost and charges it to the run's budget, writes down the case's trajectory,
 * answers the tools whose results the case fixes, and stops a loop at the step limit. Every model path of a task
 * (the handle itself, the LangChain4j and Spring AI chat models the engine hands out, routed Spring beans) comes here.
 */
final class ModelHandle implements Model {

    private final String key;
    private final ModelEndpoint endpoint;
    private final ModelCall call;
    private final Budget budget;
    private final BooleanSupplier live;
    private final TrajectoryRecorder trajectory;
    private final int maxSteps;
    private volatile ModelCallException stepLimit;
    private final List<String[]> exchanges = new ArrayList<>();

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
            BooleanSupplier live, Function<String, ScorerOptionValues> scorerOptions, int maxSteps) {
        this.key = key;
        this.trajectory = new TrajectoryRecorder(key, evalCase.toolResults());
        this.maxSteps = maxSteps;
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
        ModelRequest sent = trajectory.beforeCall(request);
        while (true) {
            Completion completion = call(sent);
            List<Message> fixed = trajectory.fixedResults(sent, completion);
            if (fixed.isEmpty()) {
                return completion;
            }
            // every tool asked for is answered by the case: the conversation goes on without the task's tools
            List<Message> continued = new ArrayList<>(sent.messages());
            continued.addAll(fixed);
            sent = sent.withMessages(continued);
        }
    }

    private Completion call(ModelRequest sent) {
        if (trajectory.modelCalls() >= maxSteps) {
            ModelCallException limit = new ModelCallException("case '" + call.evalCase().id() + "': the agent made "
                    + maxSteps + " calls to " + key + " without finishing (" + Constants.AGENT_MAX_STEPS + " = "
                    + maxSteps + "; " + trajectory.toolsCalled() + "). A loop, or a task that needs more steps: raise "
                    + Constants.AGENT_MAX_STEPS + " for it.");
            stepLimit = limit;
            throw limit;
        }
        budget.checkBeforeCall();
        ModelAnswer answer = endpoint.answer(sent, call);
        Completion completion = answer.completion();
        budget.charge(completion.costUsd());
        trajectory.afterCall(sent, completion, answer.replayed());
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

    /** The engine sends the next turn of the case's scripted conversation. */
    void startTurn(int turn) {
        trajectory.startTurn(turn);
    }

    /** The engine has the agent's answer to the user's message of the turn it started last. */
    synchronized void endTurn(String user, String answer) {
        exchanges.add(new String[] {user, answer});
    }

    /**
     * The turns of a conversation case, each with its steps; empty for a single-turn case. A turn the task failed
     * in, or the step limit ended, is not among them.
     */
    synchronized List<Turn> turns() {
        if (exchanges.isEmpty()) {
            return List.of();
        }
        List<Trajectory.Step> steps = trajectory().steps();
        List<Turn> turns = new ArrayList<>(exchanges.size());
        for (int i = 0; i < exchanges.size(); i++) {
            int index = i;
            turns.add(new Turn(i, exchanges.get(i)[0], exchanges.get(i)[1],
                    steps.stream().filter(step -> step.turn() == index).toList()));
        }
        return turns;
    }

    /** What the case's task did, step by step. */
    Trajectory trajectory() {
        return trajectory.trajectory();
    }

    /**
     * The step limit's error, when the task ran into it: the case is an error even when the task caught the
     * exception and returned.
     */
    Optional<ModelCallException> stepLimit() {
        return Optional.ofNullable(stepLimit);
    }

    synchronized CallUsage usage() {
        if (calls == 0) {
            return CallUsage.NONE;
        }
        return new CallUsage(calls, anyLive ? latencyMs : null, tokensIn, tokensOut, costUsd, !anyLive);
    }
}
