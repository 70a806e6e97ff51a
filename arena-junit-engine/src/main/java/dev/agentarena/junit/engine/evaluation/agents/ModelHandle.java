package dev.agentarena.junit.engine.evaluation.agents;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.models.AgentFailure;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.recording.RecordedTools;
import dev.agentarena.junit.engine.models.recording.RecordingCache;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Trajectory;
import dev.agentarena.junit.model.Turn;

/**
 * The {@link Model} a task receives for one case: it tags requests with the case and repeat (for simulated models
 * and recordings), adds up what the calls cost and charges it to the run's budget, writes down the case's trajectory,
 * answers the tools whose results the case fixes, stops a loop at the step limit, and holds the case's recorded MCP
 * tools. Every model path of a task (the handle itself, the LangChain4j and Spring AI chat models the engine hands
 * out, routed Spring beans) comes here.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ModelHandle implements Model {

    private final String key;
    private final ModelEndpoint endpoint;
    private final ModelCall call;
    private final CallBudget budget;
    private final BooleanSupplier live;
    private final TrajectoryRecorder trajectory;
    /** The calls the case's fixed results answered without the task, put back into its later requests. */
    private final FixedExchanges heldExchanges = new FixedExchanges();
    private final int maxSteps;
    private final RecordedTools tools;
    private volatile AgentFailure stepLimit;
    private final List<String[]> exchanges = new ArrayList<>();

    private int calls;
    private long latencyMs;
    private long queueMs;
    private boolean anyLive;
    private long tokensIn;
    private long tokensOut;
    private long tokensCached;
    private double costUsd;

    /**
     * @param live whether the case still wants calls: not once its task ran past its limit and was given up
     * @param scorerOptions the options each scorer reads for the case, for simulated models that answer in their shape
     */
    public ModelHandle(String key, ModelEndpoint endpoint, EvalCase evalCase, int repeat, CallBudget budget,
            BooleanSupplier live, Function<String, ScorerOptionValues> scorerOptions, int maxSteps,
            RecordingCache recordings, TrajectoryRecorder.RepeatedIds repeatedIds) {
        this.key = key;
        this.tools = new RecordedTools(recordings, key, evalCase.id(), repeat);
        this.trajectory = new TrajectoryRecorder(key, evalCase.id(), evalCase.toolResults(), repeatedIds);
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

    /** The repeat of the case this handle calls the model for, from 0. */
    public int repeat() {
        return call.repeat();
    }

    @Override
    public Completion complete(ModelRequest request) {
        if (!live.getAsBoolean()) {
            throw new ModelCallException("case '" + call.evalCase().id() + "' ran past its time limit and was given "
                    + "up: its task may not call " + key + " any more");
        }
        ModelRequest sent = trajectory.beforeCall(heldExchanges.restore(request));
        int asked = sent.messages().size();
        while (true) {
            Completion completion = call(sent);
            List<Message> fixed = trajectory.fixedResults(sent, completion);
            if (fixed.isEmpty()) {
                if (sent.messages().size() > asked) {
                    heldExchanges.held(request, sent.messages().subList(asked, sent.messages().size()), completion);
                }
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
            AgentFailure limit = new AgentFailure(AgentFailure.Kind.STEP_LIMIT, "case '" + call.evalCase().id()
                    + "': the agent made "
                    + maxSteps + " calls to " + key + " without finishing (" + Constants.AGENT_MAX_STEPS + " = "
                    + maxSteps + "; " + trajectory.toolsCalled() + "). A loop, or a task that needs more steps: raise "
                    + Constants.AGENT_MAX_STEPS + " for it.");
            stepLimit = limit;
            throw limit;
        }
        budget.checkBeforeCall();
        Completion completion;
        ModelAnswer answer;
        if (budget.capped() && endpoint.batching().isPresent()) {
            // a batch is sent at once: its calls reserve their estimated cost first, so that it holds what fits
            double reserved = endpoint.estimatedCostUsd(sent);
            try {
                budget.reserve(reserved);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ModelCallException(key + ": interrupted while waiting for room in the budget", e);
            }
            double cost = 0;
            try {
                answer = endpoint.answer(sent, call);
                cost = answer.completion().costUsd();
            }
            finally {
                budget.settle(reserved, cost);
            }
            completion = answer.completion();
        }
        else {
            answer = endpoint.answer(sent, call);
            completion = answer.completion();
            budget.charge(completion.costUsd());
        }
        trajectory.afterCall(sent, completion, answer.replayed());
        synchronized (this) {
            calls++;
            tokensIn += completion.tokensIn();
            tokensOut += completion.tokensOut();
            tokensCached += completion.cachedTokensIn();
            costUsd += completion.costUsd();
            if (!answer.replayed()) {
                anyLive = true;
                latencyMs += completion.latency().toMillis();
                queueMs += answer.queued().toMillis();
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
    public synchronized List<Turn> turns() {
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
    public Trajectory trajectory() {
        return trajectory.trajectory();
    }

    /** The case's MCP tool servers behind record/replay, for the task's scope. */
    public RecordedTools tools() {
        return tools;
    }

    /**
     * The step limit's failure, when the task ran into it: the case ends there even when the task caught the
     * exception and returned.
     */
    public Optional<AgentFailure> stepLimit() {
        return Optional.ofNullable(stepLimit);
    }

    /**
     * What the case's calls cost, summed, as {@code usage} makes it; {@code none} when no call was made. The latency
     * and queue times are those of the calls not served from a recording, {@code null} when all were.
     */
    public synchronized <U> U usage(Usage<U> usage, U none) {
        if (calls == 0) {
            return none;
        }
        return usage.of(calls, anyLive ? latencyMs : null, anyLive ? queueMs : null, tokensIn, tokensOut,
                tokensCached, costUsd, !anyLive);
    }

    /** Makes a case's usage from its calls' sums (the results' {@code CallUsage}, whose fields these are). */
    @FunctionalInterface
    public interface Usage<U> {
        U of(int calls, Long latencyMs, Long queueMs, long tokensIn, long tokensOut, long tokensCached,
                double costUsd, boolean cached);
    }

    /**
     * The parts of a case's conversation that the task never saw: when the case fixes every tool an answer asks
     * for, the handle answers those calls itself and asks the model again, so the task gets only the answer after
     * them. Its next request (the agent's next turn of the loop, the next turn of a conversation) would then leave
     * out that exchange, and the model would see a conversation in which its earlier calls never happened: it would
     * ask for them again, or act on what it never read. This puts each exchange back where it took place in every
     * later request of the same conversation, so the model is sent what it actually said and was told.
     */
    private static final class FixedExchanges {

        /**
         * One exchange the handle held: after the task's messages {@code prefix}, the messages {@code held} (assistant
         * turns with fixed calls, and their results), which the answer {@code answer} handed to the task followed.
         */
        private record Exchange(List<Message> prefix, List<Message> held, Completion answer) {
        }

        private final List<Exchange> exchanges = new ArrayList<>();
        /** Whether {@link #exchanges} holds any: read without the lock by every request (nearly all find none). */
        private volatile boolean any;

        /** The handle answered fixed calls on its own between the task's request and the answer it hands back. */
        synchronized void held(ModelRequest asked, List<Message> held, Completion answer) {
            any = true;
            List<Message> prefix = List.copyOf(asked.messages());
            // the same conversation asked again from the same point (a task that runs the agent twice): the newest
            // counts
            exchanges.removeIf(exchange -> sameMessages(exchange.prefix(), prefix));
            exchanges.add(new Exchange(prefix, List.copyOf(held), answer));
        }

        /**
         * The task's request with every exchange the handle held put back where it took place: right after the messages
         * the task had sent then, when the request goes on from there with the answer the task was handed.
         */
        ModelRequest restore(ModelRequest request) {
            if (!any) {
                return request;
            }
            return restoreHeld(request);
        }

        private synchronized ModelRequest restoreHeld(ModelRequest request) {
            if (exchanges.isEmpty()) {
                return request;
            }
            List<Message> messages = request.messages();
            List<Exchange> matching = new ArrayList<>();
            for (Exchange exchange : exchanges) {
                int at = exchange.prefix().size();
                if (messages.size() > at && sameMessages(exchange.prefix(), messages.subList(0, at))
                        && continuesWith(messages.get(at), exchange.answer())) {
                    matching.add(exchange);
                }
            }
            if (matching.isEmpty()) {
                return request;
            }
            // from the furthest point back, so the earlier points keep their places in the task's messages
            matching.sort((a, b) -> Integer.compare(b.prefix().size(), a.prefix().size()));
            List<Message> restored = new ArrayList<>(messages);
            for (Exchange exchange : matching) {
                restored.addAll(exchange.prefix().size(), exchange.held());
            }
            return request.withMessages(restored);
        }

        /** Whether the task's message is the assistant turn of the answer it was handed (its text, the tools asked). */
        private static boolean continuesWith(Message message, Completion answer) {
            return message.role().equals("assistant") && message.content().strip().equals(answer.text().strip())
                    && message.toolCalls().stream().map(ToolCall::name).toList()
                            .equals(answer.toolCalls().stream().map(ToolCall::name).toList());
        }

        /**
         * Whether two runs of messages are the same conversation: roles, texts and the calls they answer or ask for,
         * by name (a chat library may number calls that had no id anew when it converts its messages again).
         */
        private static boolean sameMessages(List<Message> a, List<Message> b) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                Message x = a.get(i);
                Message y = b.get(i);
                if (!x.role().equals(y.role()) || !x.content().equals(y.content()) || !x.toolName().equals(y.toolName())
                        || !x.toolCalls().stream().map(ToolCall::name).toList()
                                .equals(y.toolCalls().stream().map(ToolCall::name).toList())) {
                    return false;
                }
            }
            return true;
        }
    }
}
