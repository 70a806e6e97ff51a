package dev.agentarena.junit;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A user played by a model, for a case that is a conversation the engine runs rather than one it scripts (the
 * dataset's {@code simulated_user}): the user model is given the goal and the persona, writes each user turn after
 * the agent answered the one before, and says when it is done. The conversation ends when the user says it is done,
 * when the agent's answer matches {@link #stop()} (the goal counts as met), or after {@link #maxTurns()} turns.
 *
 * <p>Immutable; {@code with...} methods return a copy in which what they name is replaced.
 *
 * <pre>{@code
 * EvalCase.of("refund", "a refund by chat", null)
 *         .withSimulatedUser(SimulatedUser.of("get a refund for order 1234").withPersona("impatient")
 *                 .withStop("refund (is|has been) issued").withMaxTurns(4))
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class SimulatedUser {

    private final String goal;
    private final String persona;
    private final @Nullable Integer maxTurns;
    private final @Nullable String stop;
    private final @Nullable Pattern stopPattern;
    private final @Nullable String model;

    private SimulatedUser(String goal, String persona, @Nullable Integer maxTurns, @Nullable String stop,
            @Nullable String model) {
        if (goal == null || goal.isBlank()) {
            throw new IllegalArgumentException("a simulated user needs a non-blank goal");
        }
        if (maxTurns != null && maxTurns < 1) {
            throw new IllegalArgumentException("a simulated user's max_turns must be at least 1, was " + maxTurns);
        }
        this.goal = goal.strip();
        this.persona = persona == null ? "" : persona.strip();
        this.maxTurns = maxTurns;
        this.stop = stop == null || stop.isBlank() ? null : stop;
        this.stopPattern = this.stop == null ? null : compile(this.stop);
        this.model = model == null || model.isBlank() ? null : model.strip();
    }

    private static Pattern compile(String stop) {
        try {
            return Pattern.compile(stop, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        }
        catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("a simulated user's stop must be a regular expression (a plain phrase "
                    + "is one; escape ( [ { . * + ? \\ | ^ $ with \\), but \"" + stop + "\" is not: "
                    + e.getDescription() + " near index " + e.getIndex(), e);
        }
    }

    /** A user with this goal, no persona, the run's turn limit, no stop phrase and the run's user model. */
    public static SimulatedUser of(String goal) {
        return new SimulatedUser(goal, "", null, null, null);
    }

    /** What the user wants from the conversation, in the user's words. */
    public String goal() {
        return goal;
    }

    /** Who the user is and how they talk; empty for none. */
    public String persona() {
        return persona;
    }

    /** The most user turns the conversation may take; empty for the run's limit ({@code arena.agent.max-turns}). */
    public Optional<Integer> maxTurns() {
        return Optional.ofNullable(maxTurns);
    }

    /**
     * A regular expression (a plain phrase is one), found case-insensitively anywhere in an answer of the agent: when
     * it is, the goal counts as met and the conversation ends; empty when only the user decides.
     */
    public Optional<String> stop() {
        return Optional.ofNullable(stop);
    }

    /** Whether this answer of the agent meets the goal by {@link #stop()}; never without a stop. */
    public boolean stopsAt(@Nullable String answer) {
        return stopPattern != null && answer != null && stopPattern.matcher(answer).find();
    }

    /** The key of the model that plays the user; empty for the run's ({@code arena.agent.user-model}). */
    public Optional<String> model() {
        return Optional.ofNullable(model);
    }

    /** A copy with this persona; {@code null} or blank for none. */
    public SimulatedUser withPersona(@Nullable String newPersona) {
        return new SimulatedUser(goal, newPersona, maxTurns, stop, model);
    }

    /** A copy with this turn limit; {@code null} for the run's. */
    public SimulatedUser withMaxTurns(@Nullable Integer newMaxTurns) {
        return new SimulatedUser(goal, persona, newMaxTurns, stop, model);
    }

    /**
     * A copy that ends when an answer matches this regular expression; {@code null} or blank for none.
     *
     * @throws IllegalArgumentException when it is not a regular expression
     */
    public SimulatedUser withStop(@Nullable String newStop) {
        return new SimulatedUser(goal, persona, maxTurns, newStop, model);
    }

    /** A copy played by this model key; {@code null} or blank for the run's user model. */
    public SimulatedUser withModel(@Nullable String newModel) {
        return new SimulatedUser(goal, persona, maxTurns, stop, newModel);
    }

    /** A copy with this goal. */
    public SimulatedUser withGoal(String newGoal) {
        return new SimulatedUser(newGoal, persona, maxTurns, stop, model);
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof SimulatedUser other && goal.equals(other.goal) && persona.equals(other.persona)
                && Objects.equals(maxTurns, other.maxTurns) && Objects.equals(stop, other.stop)
                && Objects.equals(model, other.model);
    }

    @Override
    public int hashCode() {
        return Objects.hash(goal, persona, maxTurns, stop, model);
    }

    @Override
    public String toString() {
        return "SimulatedUser[goal=" + goal + (persona.isEmpty() ? "" : ", persona=" + persona)
                + (maxTurns == null ? "" : ", max_turns=" + maxTurns) + (stop == null ? "" : ", stop=" + stop)
                + (model == null ? "" : ", model=" + model) + "]";
    }
}
