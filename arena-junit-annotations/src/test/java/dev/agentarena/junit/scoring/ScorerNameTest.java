package dev.agentarena.junit.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;

class ScorerNameTest {

    static class CurrencyScorer implements OutputScorer {
        @Override
        public ScoreResult score(String output, Object reference, ScoringContext context) {
            return ScoreResult.pass();
        }
    }

    static class ToolCallOrderScorer extends CurrencyScorer {
    }

    static class Scorer2 extends CurrencyScorer {
    }

    @Test
    void theDefaultNameIsTheClassNameWithoutScorerInSnakeCase() {
        assertThat(new CurrencyScorer().name()).isEqualTo("currency");
        assertThat(new ToolCallOrderScorer().name()).isEqualTo("tool_call_order");
        assertThat(new Scorer2().name()).isEqualTo("scorer2");
    }
}
