package dev.agentarena.junit.engine.evaluation.agents;

import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.SimulatedUser;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.user.UserPrompt;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/**
 * The model that plays one case's simulated user: asked for each user turn with the {@link UserPrompt}, its calls
 * made for the case (so a recording files them with it and a simulated model draws per case) but kept out of the
 * agent's trajectory and usage. What they cost is charged to the run's budget and reported as the case's
 * {@code user_cost_usd}. A failing call is an error of the case naming the user model and the turn.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class UserModel {

    private final String key;
    private final Supplier<ModelEndpoint> endpoint;
    private final ModelCall call;
    private final CallBudget budget;
    private final BooleanSupplier live;
    private final int defaultMaxTurns;
    private double costUsd;

    /**
     * @param endpoint the model, looked up on the first call, so that a key no client serves is the case's error
     *        naming the simulated user
     * @param live whether the case still wants calls: not once it ran past its time limit and was given up
     * @param defaultMaxTurns the turn limit of a user whose case sets none ({@code arena.agent.max-turns})
     */
    public UserModel(String key, Supplier<ModelEndpoint> endpoint, EvalCase evalCase, int repeat, CallBudget budget,
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
