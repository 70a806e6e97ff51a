package dev.agentarena.junit.engine.evaluation.agents;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.SimulatedUser;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.models.user.UserPrompt;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

/**
 * A conversation case's loop, turn by turn: its user turns scripted ({@link #scripted}) or written by a simulated user
 * ({@link #simulated}), each answered by the task called with the turn as its input, or, without a task, by the model
 * sent the whole conversation, which the engine then holds. Every turn's steps are in the case's trajectory under
 * their turn; the output is the last turn's, with every turn's tool calls and metrics.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Conversations {

    /** The task's answer to one user turn: the task called with the turn as its input. */
    @FunctionalInterface
    public interface TaskTurn {
        TaskOutput answer(String userTurn);
    }

    private Conversations() {
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
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A conversation with a simulated user: the user model writes each user turn from the goal, the persona and the
     * conversation so far; the agent answers it as it would a scripted turn (the task called with the turn as its
     * input, or the engine holding the conversation). It ends when the agent's answer matches the stop, when the
     * user model says it is done, or after the turn limit; how is the case's metric {@code goal_met},
     * {@code user_done} or {@code turn_limit}, none of them an error.
     *
     * @param task the task's answer to a turn, or {@code null} without a task
     */
    public static TaskOutput simulated(EvalCase evalCase, SimulatedUser user, ModelHandle model, UserModel users,
            TaskTurn task) {
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
            last = answer(userTurn, model, messages, task);
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
    private static TaskOutput answer(String userTurn, ModelHandle model, List<Message> messages, TaskTurn task) {
        if (task != null) {
            return task.answer(userTurn);
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
     *
     * @param task the task's answer to a turn, or {@code null} without a task
     */
    public static TaskOutput scripted(EvalCase evalCase, ModelHandle model, TaskTurn task) {
        List<Message> messages = new ArrayList<>();
        TaskOutput last = null;
        List<ToolCall> calls = new ArrayList<>();
        Map<String, Double> metrics = new LinkedHashMap<>();
        int turn = 0;
        for (String userTurn : evalCase.turns()) {
            model.startTurn(turn++);
            last = answer(userTurn, model, messages, task);
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
}
