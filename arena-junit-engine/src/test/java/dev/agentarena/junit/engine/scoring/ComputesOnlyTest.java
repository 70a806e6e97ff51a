package dev.agentarena.junit.engine.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * Which scorers the engine runs on its compute pool (one thread per core): the builtins whose work follows the
 * output's length and waits on nothing. Every other scorer, a user's included, may wait and keeps the call pool.
 */
class ComputesOnlyTest {

    @Test
    void theBuiltinsThatOnlyComputeAreExactlyTheseSix() {
        List<String> computing = ScorerRegistry.withBuiltins().all().stream().filter(ScorerDefinition::computesOnly)
                .map(ScorerDefinition::name).sorted().toList();

        // not llm_judge (a judge model), semantic (an embedding model), code_exec (a process), regex (a search that
        // may run until its wall-clock timeout on an output that defeats its pattern), nor a catalogue scorer
        assertThat(computing).containsExactly("classification", "contains", "exact_match", "json_match", "manual",
                "numeric");
    }

    @Test
    void aUserScorerMayWaitWhateverItDoes() {
        ScorerDefinition custom = new ClassScorerDefinition(new OutputScorer() {
            @Override
            public String name() {
                return "exact_match_again";
            }

            @Override
            public ScoreResult score(String output, Object reference, ScoringContext context) {
                return ScoreResult.of(output.equals(reference) ? 1 : 0);
            }
        });

        assertThat(custom.computesOnly()).isFalse();
    }
}
