package dev.agentarena.junit.engine.scoring;

import java.util.List;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoringContext;

/**
 * A scorer as the engine runs it, whatever its shape: a {@link dev.agentarena.junit.scoring.OutputScorer} class or a
 * {@link dev.agentarena.junit.Scorer @Scorer} method.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface ScorerDefinition {

    /** The scorer's name, which is also its score name unless it emits several named scores. */
    String name();

    /** A digest of the scorer's code; changes when its behaviour may have changed. */
    String version();

    /**
     * Grades one output.
     *
     * @return one score per emitted name; a score with no result means "not applicable"
     * @throws Throwable whatever the scorer threw; the engine records it as an error of this scorer
     */
    List<NamedScore> score(String output, ScoringContext context) throws Throwable;

    /**
     * Whether it grades a conversation case turn by turn unless its option {@code per_turn} says otherwise: a
     * {@code @Scorer(perTurn = true)} method; no class or catalogue scorer by default.
     */
    default boolean perTurn() {
        return false;
    }

    /**
     * Whether grading is computation on the output alone, waiting on nothing: no model, process, file or network
     * (the builtins {@code exact_match}, {@code contains}, {@code numeric}, {@code json_match},
     * {@code classification}, {@code manual}). The engine runs such cases on as many threads as the machine has
     * cores; a scorer it cannot see into (user code) is taken to wait.
     */
    default boolean computesOnly() {
        return false;
    }
}
