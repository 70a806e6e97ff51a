package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.reporting.gates.GateResult;
import dev.agentarena.junit.engine.reporting.gates.GateRule;
import dev.agentarena.junit.engine.reporting.gates.GateSpec;
import dev.agentarena.junit.engine.reporting.gates.Gates;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

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
    void latencyGatesBoundEachModelsPercentileAndLeaveOutAModelWithNothingLive() {
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String id = "c" + i;
            // sim_small: 100 ms, but 1 s on the slowest twentieth; sim_large replayed throughout
            records.add(Results.of("support-triage", "sim_small", id).latency(i == 19 ? 1000L : 100L).build());
            records.add(Results.of("support-triage", "sim_large", id).latency(null).cached(true).build());
        }
        Leaderboard board = Leaderboard.compute(records, LeaderboardSettings.defaults());
        ModelEntry small = board.evals().get(0).models().stream().filter(m -> m.model().equals("sim_small"))
                .findFirst().orElseThrow();

        List<GateResult> results = Gates.evaluate(board, GateSpec.parse(Map.of("arena.gates.max-latency-p50-ms",
                "150", "arena.gates.max-latency-p95-ms.support-triage.sim_small", "120")));

        assertThat(results).extracting(GateResult::message).containsExactly(
                "gate not applied: support-triage / sim_large has no live call to measure "
                        + "(arena.gates.max-latency-p50-ms): every call was replayed, or none was made",
                "gate passed: support-triage / sim_small p50 latency 100 ms <= 150 ms (max-latency-p50-ms)",
                String.format(java.util.Locale.ROOT, "gate failed: support-triage / sim_small p95 latency %.0f ms > "
                        + "120 ms (max-latency-p95-ms)", small.latencyP95Ms()));
        assertThat(results).extracting(GateResult::status).containsExactly(GateResult.Status.UNMATCHED,
                GateResult.Status.PASSED, GateResult.Status.FAILED);
        assertThat(Gates.anyFailed(results)).isTrue();
    }

    @Test
    void aLatencyGateNamingAScorerOrANegativeBoundIsAnError() {
        assertThat(evaluate(Map.of("arena.gates.max-latency-p95-ms.support-triage.sim_small.contains", "500")))
                .extracting(GateResult::message).containsExactly("gate failed: arena.gates.max-latency-p95-ms."
                        + "support-triage.sim_small.contains names a scorer, but latency belongs to model calls; use "
                        + "<eval> or <eval>.<model>");
        assertThatThrownBy(() -> GateSpec.parse(Map.of("arena.gates.max-latency-p50-ms", "-1")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("arena.gates.max-latency-p50-ms must be a non-negative number of milliseconds, but was -1");
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
                .hasMessageContaining("min-accuracy, arena.gates.min-pass-rate, arena.gates.max-cost-usd, "
                        + "arena.gates.max-errors, arena.gates.max-latency-p50-ms, arena.gates.max-latency-p95-ms, "
                        + "arena.gates.max-attack-success or arena.gates.max-over-refusal");
        assertThatThrownBy(() -> GateSpec.parse(Map.of("arena.gates.min-accuracy.e", "eighty")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("arena.gates.min-accuracy.e must be a number, but was \"eighty\"");
        assertThatThrownBy(() -> GateSpec.parse(Map.of("arena.gates.min-accuracy", "80")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("between 0 and 1");
        assertThatThrownBy(() -> GateSpec.parse(Map.of("arena.gates.max-cost-usd", "-1")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("non-negative");
        assertThatThrownBy(() -> GateSpec.parse(Map.of("arena.gates.max-errors", "1.5")))
                .isInstanceOf(ConfigurationException.class).hasMessage("arena.gates.max-errors must be a whole number "
                        + "of errored results, at least 0, but was 1.5");
        assertThat(GateSpec.parse(Map.of("arena.other", "x")).isEmpty()).isTrue();
    }

    /** sim_small: exact_match passes every case, tone throws on every output, and the call of c9 failed. */
    private static Leaderboard withErrors() {
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            records.add(Results.of("e", "sim_small", "c" + i).build());
            records.add(Results.of("e", "sim_small", "c" + i).scorer("tone").score(null)
                    .status(ResultStatus.ERROR).build());
        }
        records.add(Results.of("e", "sim_small", "c9").score(null).status(ResultStatus.ERROR).output(null).build());
        records.add(Results.of("e", "sim_small", "c9").scorer("tone").score(null).status(ResultStatus.ERROR)
                .output(null).build());
        return Leaderboard.compute(records, LeaderboardSettings.defaults());
    }

    @Test
    void anAccuracyGateFailsOnErroredResultsByDefault() {
        // Accuracy leaves errors out: exact_match's 9 scored cases all passed, so accuracy is 1.000.
        List<GateResult> results = Gates.evaluate(withErrors(), GateSpec.parse(Map.of(
                "arena.gates.min-accuracy", "0.8", "arena.gates.min-accuracy.e.exact_match", "0.8")));
        assertThat(results).extracting(GateResult::message).containsExactly(
                "gate failed: e / sim_small accuracy 1.000 >= 0.800 (min-accuracy), but 11 results errored and none"
                        + " are allowed (arena.gates.max-errors); errored results are not in accuracy",
                "gate failed: e / sim_small / exact_match accuracy 1.000 >= 0.800 (min-accuracy), but 1 result"
                        + " errored and none are allowed (arena.gates.max-errors); errored results are not in"
                        + " accuracy");
        assertThat(results).allMatch(GateResult::failed);
    }

    @Test
    void maxErrorsAllowsSomeAndIsAGateOfItsOwn() {
        List<GateResult> results = Gates.evaluate(withErrors(), GateSpec.parse(Map.of(
                "arena.gates.min-pass-rate.e", "0.8", "arena.gates.max-errors.e.sim_small", "11",
                "arena.gates.min-accuracy.e.exact_match", "0.8", "arena.gates.max-errors.e.tone", "10")));
        assertThat(results).extracting(GateResult::message).containsExactly(
                // the scorer gate takes its model's allowance, as no max-errors names exact_match
                "gate passed: e / sim_small / exact_match accuracy 1.000 >= 0.800 (min-accuracy); 1 errored (11"
                        + " allowed by arena.gates.max-errors.e.sim_small)",
                "gate passed: e / sim_small pass rate 1.000 >= 0.800 (min-pass-rate); 11 errored (11 allowed by"
                        + " arena.gates.max-errors.e.sim_small)",
                "gate passed: e / sim_small errored results 11 <= 11 (max-errors)",
                "gate passed: e / sim_small / tone errored results 10 <= 10 (max-errors)");
        List<GateResult> strict = Gates.evaluate(withErrors(), GateSpec.parse(Map.of("arena.gates.max-errors", "3")));
        assertThat(strict).extracting(GateResult::message).containsExactly(
                "gate failed: e / sim_small errored results 11 > 3 (max-errors)");
    }

    @Test
    void aGateJudgedAloneLeavesTargetsToMoreSpecificGates() {
        GateSpec spec = GateSpec.parse(Map.of("arena.gates.min-accuracy", "0.9",
                "arena.gates.min-accuracy.support-triage.sim_small", "0.8"));
        GateRule global = spec.rules().stream().filter(r -> r.selector().isEmpty()).findFirst().orElseThrow();
        // sim_small belongs to the more specific gate, which relaxes the global one for it
        assertThat(Gates.evaluate(leaderboard(), spec, global)).extracting(GateResult::message).containsExactly(
                "gate passed: support-triage / sim_large accuracy 0.950 >= 0.900 (min-accuracy)");
    }
}
