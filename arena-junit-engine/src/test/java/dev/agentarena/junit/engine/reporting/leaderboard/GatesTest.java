package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.reporting.gates.GateResult;
import dev.agentarena.junit.engine.reporting.gates.GateSpec;
import dev.agentarena.junit.engine.reporting.gates.Gates;
import dev.agentarena.junit.engine.results.ResultRecord;

class GatesTest {

    /** support-triage: sim_small 7/10 on exact_match, 10/10 on contains; sim_large 9/10 and 10/10. */
    private static Leaderboard leaderboard() {
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String id = "c" + i;
            records.add(Results.of("support-triage", "sim_small", id).score(i < 7 ? 1.0 : 0.0).cost(0.01).build());
            records.add(Results.of("support-triage", "sim_small", id).scorer("contains").cost(0.01).build());
            records.add(Results.of("support-triage", "sim_large", id).score(i < 9 ? 1.0 : 0.0).cost(0.1).build());
            records.add(Results.of("support-triage", "sim_large", id).scorer("contains").cost(0.1).build());
        }
        return Leaderboard.compute(records, LeaderboardSettings.defaults());
    }

    private static List<GateResult> evaluate(Map<String, String> settings) {
        return Gates.evaluate(leaderboard(), GateSpec.parse(settings));
    }

    @Test
    void scorerGateNamesEvalModelScorerValueAndThreshold() {
        List<GateResult> results = evaluate(Map.of("arena.gates.min-accuracy.support-triage.sim_small.exact_match",
                "0.8"));
        assertThat(results).extracting(GateResult::message).containsExactly(
                "gate failed: support-triage / sim_small / exact_match accuracy 0.700 < 0.800 (min-accuracy)");
        assertThat(Gates.anyFailed(results)).isTrue();
        assertThat(results.get(0).value()).isEqualTo(0.7);
    }

    @Test
    void evalScorerGateAppliesToEveryModel() {
        List<GateResult> results = evaluate(Map.of("arena.gates.min-accuracy.support-triage.exact_match", "0.8"));
        assertThat(results).extracting(GateResult::message).containsExactly(
                "gate passed: support-triage / sim_large / exact_match accuracy 0.900 >= 0.800 (min-accuracy)",
                "gate failed: support-triage / sim_small / exact_match accuracy 0.700 < 0.800 (min-accuracy)");
    }

    @Test
    void globalGateAppliesToEachEvalAndModelAndTheMostSpecificWins() {
        // Model level: sim_large (0.9 + 1) / 2 per case → 0.95; sim_small → 0.85.
        List<GateResult> results = evaluate(Map.of("arena.gates.min-accuracy", "0.9",
                "arena.gates.min-accuracy.support-triage.sim_small", "0.8"));
        assertThat(results).extracting(GateResult::message).containsExactly(
                "gate passed: support-triage / sim_large accuracy 0.950 >= 0.900 (min-accuracy)",
                "gate passed: support-triage / sim_small accuracy 0.850 >= 0.800 (min-accuracy)");
        assertThat(results.get(1).rule().key()).isEqualTo("arena.gates.min-accuracy.support-triage.sim_small");
    }

    @Test
    void aStarSelectorIsTheGlobalGateAsYamlCanWriteIt() {
        assertThat(evaluate(Map.of("arena.gates.min-accuracy.*", "0.9"))).extracting(GateResult::message)
                .isEqualTo(evaluate(Map.of("arena.gates.min-accuracy", "0.9")).stream().map(GateResult::message)
                        .toList());
    }

    @Test
    void passRateAndCostGates() {
        List<GateResult> results = evaluate(Map.of("arena.gates.min-pass-rate.*.sim_large", "0.95",
                "arena.gates.max-cost-usd", "1.5", "arena.gates.max-cost-usd.support-triage.sim_small", "0.05"));
        assertThat(results).extracting(GateResult::message).containsExactly(
                "gate failed: support-triage / sim_large pass rate 0.900 < 0.950 (min-pass-rate)",
                "gate passed: whole run cost $1.1000 <= $1.5000 (max-cost-usd)",
                "gate failed: support-triage / sim_small cost $0.1000 > $0.0500 (max-cost-usd)");
    }

    @Test
    void aGateForAnEvalNotInTheRunIsReportedNotFailed() {
        List<GateResult> results = evaluate(Map.of("arena.gates.min-accuracy.other-eval", "0.8"));
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(GateResult.Status.UNMATCHED);
            assertThat(r.message()).isEqualTo("gate not applied: arena.gates.min-accuracy.other-eval matches no eval,"
                    + " model or scorer of this run");
        });
        assertThat(Gates.anyFailed(results)).isFalse();
    }

    @Test
    void aNameThatIsBothModelAndScorerIsAmbiguous() {
        List<ResultRecord> records = List.of(Results.of("e", "contains", "c1").build(),
                Results.of("e", "m", "c1").scorer("contains").build());
        List<GateResult> results = Gates.evaluate(Leaderboard.compute(records, LeaderboardSettings.defaults()),
                GateSpec.parse(Map.of("arena.gates.min-accuracy.e.contains", "0.5")));
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.failed()).isTrue();
            assertThat(r.message()).contains("is ambiguous").contains("<eval>.<model>.<scorer>");
        });
    }

    @Test
    void aModelWithNothingScoredFailsAnAccuracyGate() {
        List<ResultRecord> records = List.of(Results.of("e", "m", "c1").score(null).build());
        List<GateResult> results = Gates.evaluate(Leaderboard.compute(records, LeaderboardSettings.defaults()),
                GateSpec.parse(Map.of("arena.gates.min-accuracy", "0.5")));
        assertThat(results).extracting(GateResult::message)
                .containsExactly("gate failed: e / m accuracy n/a < 0.500 (min-accuracy): no scored results");
    }

    @Test
    void badKeysAndValuesAreConfigurationErrorsNamingTheKey() {
        assertThatThrownBy(() -> GateSpec.parse(Map.of("arena.gates.min-acuracy", "0.8")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("arena.gates.min-acuracy")
                .hasMessageContaining("min-accuracy, arena.gates.min-pass-rate or arena.gates.max-cost-usd");
        assertThatThrownBy(() -> GateSpec.parse(Map.of("arena.gates.min-accuracy.e", "eighty")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("arena.gates.min-accuracy.e must be a number, but was \"eighty\"");
        assertThatThrownBy(() -> GateSpec.parse(Map.of("arena.gates.min-accuracy", "80")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("between 0 and 1");
        assertThatThrownBy(() -> GateSpec.parse(Map.of("arena.gates.max-cost-usd", "-1")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("non-negative");
        assertThat(GateSpec.parse(Map.of("arena.other", "x")).isEmpty()).isTrue();
    }
}
