package dev.agentarena.junit.model;

import java.util.List;
import java.util.Objects;

import org.apiguardian.api.API;

/**
 * One turn of a conversation case (scripted {@code turns} or a simulated user): what the user said, what the agent
 * answered, and the steps the agent took in between. Scorers read every turn from {@code ScoringContext.turns()},
 * and a scorer that grades turn by turn gets the one it grades from {@code ScoringContext.turn()}.
 *
 * @param index the turn, from 0, as {@link Trajectory.Step#turn()} numbers it
 * @param user the user's message
 * @param answer the agent's answer (the task's output for the turn)
 * @param steps the model calls and tool executions of the turn, in order
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record Turn(int index, String user, String answer, List<Trajectory.Step> steps) {

    /** Freezes the steps. */
    public Turn {
        Objects.requireNonNull(user, "user");
        answer = answer == null ? "" : answer;
        steps = List.copyOf(steps);
    }

    /** The turn's steps as a trajectory of their own, for the trajectory scorers. */
    public Trajectory trajectory() {
        return Trajectory.of(steps);
    }
}
