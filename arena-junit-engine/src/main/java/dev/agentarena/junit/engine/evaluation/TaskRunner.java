package dev.agentarena.junit.engine.evaluation;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.SimulatedUser;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.lifecycle.CaseCallbacks;
import dev.agentarena.junit.engine.models.AgentFailure;
import dev.agentarena.junit.engine.models.CaseModelScope;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.user.UserPrompt;
import dev.agentarena.junit.engine.parameters.ArgumentResolver;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/**
 * Produces one case's output: the user's {@code @Task} method, between the {@link CaseCallbacks} around a task and
 * within the case's {@link CaseModelScope}, or by default the prompt sent to the model; for a conversation case, once
 * per turn, its user turns scripted or written by a simulated user ({@link UserModel}).
 */
final class TaskRunner {

    /** How many characters of the case id a conversation id keeps readable. */
    private static final int ID_PREFIX_LENGTH = 48;

    private final Method task;
    private final Object evalInstance;
    private final CaseCallbacks callbacks;
    /** How messages name the task: asked for every case, as the name of its step. */
    private final String description;
    private final String evalName;

    TaskRunner(Method task, Object evalInstance, CaseCallbacks callbacks, String evalName) {
        this.task = task;
        this.evalInstance = evalInstance;
        this.callbacks = callbacks;
        this.evalName = evalName;
        this.description = task == null ? "the call to the model" : "@Task " + task.getName() + "()";
    }

    /**
     * The identity of one run of a case, which a task binds as {@code conversationId} to key its chat memory on:
     * the case id (characters other than letters, digits, {@code .}, {@code _} and {@code -} as {@code _}, at most
     * {@value #ID_PREFIX_LENGTH} of them), a dash and 16 hex digits of a SHA-256 over eval, model, case and repeat.
     * Distinct per eval, model, case and repeat, the same on every run (so a recording that holds it replays), and
     * safe as a key or a file name whatever the case id holds.
     */
    static String conversationId(String eval, String model, String caseId, int repeat) {
        // cut before replacing: a case id of a megabyte costs no more than a short one
        String readable = caseId.substring(0, Math.min(caseId.length(), ID_PREFIX_LENGTH))
                .replaceAll("[^A-Za-z0-9._-]", "_");
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(String.join("\0", eval, model, caseId,
                    Integer.toString(repeat)).getBytes(StandardCharsets.UTF_8));
            return readable + "-" + HexFormat.of().formatHex(digest, 0, 8);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** How messages name the task: {@code @Task method()}, or {@code the call to the model}. */
    String describe() {
        return description;
    }

    /**
     * @param user the model that plays the case's simulated user, or {@code null} for a case without one
     */
    TaskOutput run(EvalCase evalCase, String prompt, ModelHandle model, UserModel user) {
        if (!evalCase.turns().isEmpty()) {
            return conversation(evalCase, model);
        }
        if (evalCase.simulatedUser().isPresent() && user != null) {
            return simulatedConversation(evalCase, evalCase.simulatedUser().get(), model, user);
        }
        return runOnce(evalCase, prompt, model);
    }

    /** How a conversation with a simulated user ended: each is a 0/1 metric of the case, exactly one of them 1. */
    enum ConversationEnd {
        /** The agent's answer matched the user's {@code stop}. */
        GOAL_MET,
        /** The user model said it was done. */
        USER_DONE,
        /** The conversation took {@code max_turns} turns with neither. */
        TURN_LIMIT;

        String metric() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A conversation with a simulated user: the user model writes each user turn from the goal, the persona and the
     * conversation so far; the agent answers it as it would a scripted turn (the task called with the turn as its
     * input, or the engine holding the conversation). It ends when the agent's answer matches the stop, when the
     * user model says it is done, or after the turn limit; how is the case's metric {@code goal_met},
     * {@code user_done} or {@code turn_limit}, none of them an error.
     */
    private TaskOutput simulatedConversation(EvalCase evalCase, SimulatedUser user, ModelHandle model,
            UserModel users) {
        int maxTurns = users.maxTurns(user);
        List<UserPrompt.Exchange> exchanges = new ArrayList<>();
        List<Message> messages = new ArrayList<>();
        List<ToolCall> calls = new ArrayList<>();
        Map<String, Double> metrics = new LinkedHashMap<>();
        TaskOutput last = null;
        ConversationEnd end = null;
        Optional<String> next = users.next(user, exchanges, 0);
        if (next.isEmpty()) {
            throw new ModelCallException("case '" + evalCase.id() + "': the simulated user (model " + users.key()
                    + ") said it was done (" + UserPrompt.DONE + ") before its first turn; it must open the "
                    + "conversation with a message");
        }
        for (int turn = 0; end == null; turn++) {
            String userTurn = next.get();
            model.startTurn(turn);
            last = answer(evalCase, userTurn, model, messages);
            model.endTurn(userTurn, last.text());
            exchanges.add(new UserPrompt.Exchange(userTurn, last.text()));
            calls.addAll(last.toolCalls());
            metrics.putAll(last.metrics());
            if (user.stopsAt(last.text())) {
                end = ConversationEnd.GOAL_MET;
                break;
            }
            next = users.next(user, exchanges, turn + 1);
            if (next.isEmpty()) {
                end = ConversationEnd.USER_DONE;
            }
            else if (turn + 1 >= maxTurns) {
                end = ConversationEnd.TURN_LIMIT;
            }
        }
        TaskOutput output = last.withToolCalls(calls);
        for (Map.Entry<String, Double> metric : metrics.entrySet()) {
            output = output.withMetric(metric.getKey(), metric.getValue());
        }
        output = output.withMetric("turns", exchanges.size());
        for (ConversationEnd each : ConversationEnd.values()) {
            output = output.withMetric(each.metric(), each == end ? 1 : 0);
        }
        return output.withMetric("user_cost_usd", users.costUsd());
    }

    /** The agent's answer to one user turn: the task's for it, or, without a task, the model's to the whole talk. */
    private TaskOutput answer(EvalCase evalCase, String userTurn, ModelHandle model, List<Message> messages) {
        if (task != null) {
            return runOnce(evalCase, userTurn, model);
        }
        messages.add(Message.user(userTurn));
        Completion completion = model.complete(ModelRequest.ofMessages(messages));
        messages.add(Message.assistant(completion.text()));
        return TaskOutput.of(completion.text()).withToolCalls(completion.toolCalls());
    }

    /**
     * A scripted conversation: each user turn in order, after the answer to the one before. Without a task the
     * engine holds the conversation and sends it whole each time; a task is called once per turn with the turn as
     * its input, and keeps the conversation itself (an AI service's chat memory), as it would in production. The
     * output is the last turn's; every turn's steps are in the trajectory under their turn.
     */
    private TaskOutput conversation(EvalCase evalCase, ModelHandle model) {
        List<Message> messages = new ArrayList<>();
        TaskOutput last = null;
        List<ToolCall> calls = new ArrayList<>();
        Map<String, Double> metrics = new LinkedHashMap<>();
        int turn = 0;
        for (String userTurn : evalCase.turns()) {
            model.startTurn(turn++);
            last = answer(evalCase, userTurn, model, messages);
            model.endTurn(userTurn, last.text());
            calls.addAll(last.toolCalls());
            metrics.putAll(last.metrics());
        }
        TaskOutput output = last.withToolCalls(calls);
        for (Map.Entry<String, Double> metric : metrics.entrySet()) {
            output = output.withMetric(metric.getKey(), metric.getValue());
        }
        return output.withMetric("turns", evalCase.turns().size());
    }

    private TaskOutput runOnce(EvalCase evalCase, String prompt, ModelHandle model) {
        if (task == null) {
            Completion completion = model.complete(ModelRequest.ofPrompt(prompt));
            TaskOutput output = TaskOutput.of(completion.text());
            // most completions call no tool: no second copy of the output to replace none with none
            return completion.toolCalls().isEmpty() ? output : output.withToolCalls(completion.toolCalls());
        }
        Map<Class<?>, Object> byType = new LinkedHashMap<>();
        byType.put(EvalCase.class, evalCase);
        byType.put(Model.class, model);
        // a LangChain4j or Spring AI chat model over the same handle, for AI services the task builds
        byType.putAll(Integrations.taskParameters(task, model));
        Map<String, Object> byName = new LinkedHashMap<>();
        // a conversation's turn (scripted, or a simulated user's) is the task's input
        boolean conversation = !evalCase.turns().isEmpty() || evalCase.simulatedUser().isPresent();
        byName.put("input", conversation ? prompt : evalCase.input());
        byName.put("prompt", prompt);
        byName.put("metadata", evalCase.metadata());
        byName.put("conversationId", conversationId(evalName, model.key(), evalCase.id(), model.repeat()));
        Object[] arguments = ArgumentResolver.TASK.resolve(task, byType, byName);
        Object target = Modifier.isStatic(task.getModifiers()) ? null : evalInstance;
        Object returned;
        // the application's chat model beans, when routed (@RouteChatModelsToArena), call this case's model
        // and its MCP tool servers (integration/mcp) record or replay into this case's recording
        try (CaseModelScope scope = CaseModelScope.open(model, model.tools())) {
            returned = invoke(target, arguments);
        }
        if (returned instanceof TaskOutput) {
            return (TaskOutput) returned;
        }
        if (returned instanceof Completion completion) {
            TaskOutput output = TaskOutput.of(completion.text());
            // most completions call no tool: no second copy of the output to replace none with none
            return completion.toolCalls().isEmpty() ? output : output.withToolCalls(completion.toolCalls());
        }
        if (returned == null) {
            if (model.trajectory().lastModelStep().filter(last -> last.text().isBlank() && last.toolCalls().isEmpty())
                    .isPresent()) {
                // the model's last answer was empty, and a chat library gives that as null (Spring AI's content())
                throw new AgentFailure(AgentFailure.Kind.ANSWER, "case '" + evalCase.id() + "': the model's final "
                        + "answer was empty, and @Task " + task.getName() + "() returned null.");
            }
            throw new IllegalStateException("@Task " + task.getName() + "() returned null for case '" + evalCase.id()
                    + "'; return the output, or throw to report an error");
        }
        return TaskOutput.of(Json.text(returned));
    }

    private Object invoke(Object target, Object[] arguments) {
        Throwable error = null;
        try {
            callbacks.beforeTask();
            return ReflectionSupport.invokeMethod(task, target, arguments);
        }
        catch (Throwable t) {
            error = t;
            throw t;
        }
        finally {
            afterTask(error);
        }
    }

    private void afterTask(Throwable error) {
        try {
            callbacks.afterTask(error);
        }
        catch (RuntimeException e) {
            if (error == null) {
                throw e;
            }
            error.addSuppressed(e);
        }
    }

    /**
     * The model that plays one case's simulated user: asked for each user turn with the {@link UserPrompt}, its calls
     * made for the case (so a recording files them with it and a simulated model draws per case) but kept out of the
     * agent's trajectory and usage. What they cost is charged to the run's budget and reported as the case's
     * {@code user_cost_usd}. A failing call is an error of the case naming the user model and the turn.
     */
    static final class UserModel {

        private final String key;
        private final Supplier<ModelEndpoint> endpoint;
        private final ModelCall call;
        private final Budget budget;
        private final BooleanSupplier live;
        private final int defaultMaxTurns;
        private double costUsd;

        /** @param defaultMaxTurns the turn limit of a user whose case sets none ({@code arena.agent.max-turns}) */
        /**
         * @param endpoint the model, looked up on the first call, so that a key no client serves is the case's error
         *        naming the simulated user
         */
        UserModel(String key, Supplier<ModelEndpoint> endpoint, EvalCase evalCase, int repeat, Budget budget,
                BooleanSupplier live, int defaultMaxTurns) {
            this.key = key;
            this.defaultMaxTurns = defaultMaxTurns;
            this.endpoint = endpoint;
            this.call = new ModelCall(evalCase, repeat);
            this.budget = budget;
            this.live = live;
        }

        /** The model's key. */
        String key() {
            return key;
        }

        /**
         * The user's next message after these exchanges, or empty when the user is done ({@link UserPrompt#DONE}).
         *
         * @param turn the turn the message would start, from 0, for the error's message
         */
        Optional<String> next(SimulatedUser user, List<UserPrompt.Exchange> exchanges, int turn) {
            String caseId = call.evalCase().id();
            if (!live.getAsBoolean()) {
                throw new ModelCallException("case '" + caseId + "' ran past its time limit and was given up: its "
                        + "simulated user may not call " + key + " any more");
            }
            budget.checkBeforeCall();
            ModelRequest request = UserPrompt.request(user, exchanges);
            Completion completion;
            try {
                ModelAnswer answer = endpoint.get().answer(request, call);
                completion = answer.completion();
            }
            catch (BudgetExhaustedException | CallTimedOutException e) {
                throw e;
            }
            catch (RuntimeException e) {
                throw new ModelCallException("case '" + caseId + "': the simulated user (model " + key + ") failed "
                        + (turn == 0 ? "to open the conversation" : "after turn " + turn) + ": " + e.getMessage(), e);
            }
            budget.charge(completion.costUsd());
            synchronized (this) {
                costUsd += completion.costUsd();
            }
            String text = completion.text() == null ? "" : completion.text().strip();
            if (UserPrompt.isDone(text)) {
                return Optional.empty();
            }
            if (text.isEmpty()) {
                throw new ModelCallException("case '" + caseId + "': the simulated user (model " + key + ") answered "
                        + "nothing " + (turn == 0 ? "to open the conversation" : "after turn " + turn) + "; it must "
                        + "write the user's next message, or " + UserPrompt.DONE + " when it is done");
            }
            return Optional.of(text);
        }

        /** How many user turns the conversation may take: the user's {@code max_turns}, else the run's. */
        int maxTurns(SimulatedUser user) {
            return user.maxTurns().orElse(defaultMaxTurns);
        }

        /** What its calls cost so far. */
        synchronized double costUsd() {
            return costUsd;
        }
    }
}
