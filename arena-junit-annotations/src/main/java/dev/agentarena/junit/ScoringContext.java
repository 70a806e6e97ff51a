package dev.agentarena.junit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.model.Trajectory;
import dev.agentarena.junit.model.Turn;
import dev.agentarena.junit.tracing.TraceSpan;

import org.apiguardian.api.API;

/** What a scorer knows besides the output and the reference. */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public interface ScoringContext {

    /** The whole case: id, input, reference, tags, weight, metadata, its own scorer options. */
    EvalCase testCase();

    /** The eval's name. */
    String evalName();

    /** The key of the model that produced the output, e.g. {@code sim_small}. */
    String modelKey();

    /**
     * The options of the scorer being run for this case, merged option by option: the case's {@code scorer_options},
     * over the eval's ({@code arena.evals.<eval>.scorers.options.<name>}, then {@link ScorerOption @ScorerOption}),
     * over the run's {@code scorers.options.<name>}. Each knows where it was set, for error messages.
     */
    ScorerOptionValues options();

    /** The task's full output, with tool calls and metrics. */
    TaskOutput output();

    /**
     * The passages the task retrieved for this case ({@link TaskOutput#withRetrieved}), in retrieval order, each
     * ranked; empty when it reported none.
     */
    default List<RetrievedPassage> retrieved() {
        return output().retrieved();
    }

    /**
     * The case's spans ({@link TaskOutput#spans()}): those the application under test emitted while the case ran, as
     * the engine captured them, or those of a recorded trace; empty when there are none.
     */
    default List<TraceSpan> spans() {
        return output().spans();
    }

    /** The project root, for loading fixtures next to a scorer. */
    Path projectRoot();

    /** A judge model for scorers that need one; configured by {@code arena.judge.model}. */
    Judge judge();

    /**
     * What the agent did for this case: every call to the evaluated model and every tool execution, in order, as the
     * engine captured them. Empty when the task made no model call through the engine (or in a unit test).
     */
    default Trajectory trajectory() {
        return Trajectory.EMPTY;
    }

    /**
     * Every turn of a conversation case (scripted {@code turns} or a {@code simulated_user}), in order: the user's
     * message, the agent's answer and the turn's steps. Empty for a single-turn case.
     */
    default List<Turn> turns() {
        return List.of();
    }

    /**
     * The turn being graded, when the scorer grades turn by turn ({@link Scorer#perTurn()}, or the scorer option
     * {@code per_turn}); empty when it grades the whole case.
     */
    default Optional<Turn> turn() {
        return Optional.empty();
    }

    /**
     * How long this scorer may take for this case ({@code arena.timeout.scorer}, default 60 s), past which the engine
     * interrupts it and the case is in error. A scorer that sets limits of its own (a program's run time, a search's)
     * keeps them inside this one, so that running past them is the output's verdict, not an error. Empty where no
     * limit applies, e.g. a scorer called directly in a unit test.
     */
    default Optional<Duration> timeLimit() {
        return Optional.empty();
    }
}
