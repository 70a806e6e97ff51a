package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/** The usage every result carries is weightable under the names results.jsonl uses. */
class DimensionNamesTest {

    @Test
    void latencyAndTokensAreDimensionsUnderTheirResultNames() {
        List<ResultRecord> records = List.of(
                record("fast", "a", 100L, 10, 2), record("fast", "b", 300L, 30, 4),
                record("slow", "a", 900L, 50, 6), record("slow", "b", 1100L, 70, 8));
        Leaderboard leaderboard = Leaderboard.compute(records, LeaderboardSettings.defaults()
                .withWeights(Map.of("latency_ms", 1.0)));

        EvalLeaderboard eval = leaderboard.eval("e").orElseThrow();
        ModelEntry fast = eval.models().get(0);
        ModelEntry slow = eval.models().get(1);
        assertThat(fast.model()).isEqualTo("fast");
        assertThat(fast.dimension("latency_ms")).isEqualTo(200.0);
        assertThat(fast.dimension("tokens_in")).isEqualTo(20.0);
        assertThat(slow.dimension("tokens_out")).isEqualTo(7.0);
        // lower latency is better: the fast model gets the whole composite
        assertThat(fast.composite()).isEqualTo(1.0);
        assertThat(slow.composite()).isEqualTo(0.0);
    }

    private static ResultRecord record(String model, String caseId, Long latency, long in, long out) {
        return new ResultRecord("e", model, "d", caseId, "s", "v1", "e-s", 0, 1.0, true, ResultStatus.PASSED, "",
                Map.of(), latency, in, out, 0.0, false, 1.0, List.of(), null, "x");
    }
}
