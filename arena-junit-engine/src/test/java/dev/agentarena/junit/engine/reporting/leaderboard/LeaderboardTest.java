package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.reporting.statistics.PairedTest;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

class LeaderboardTest {

    private static final LeaderboardSettings DEFAULTS = LeaderboardSettings.defaults();

    @Test
    void weightedAccuracyLeavesNotApplicableAndErrorsOut() {
        List<ResultRecord> records = List.of(
                Results.of("e", "m", "c1").score(1.0).weight(2).build(),
                Results.of("e", "m", "c2").score(0.0).build(),
                Results.of("e", "m", "c3").score(null).weight(5).build(),
                Results.of("e", "m", "c4").score(0.5).status(ResultStatus.FAILED).build(),
                Results.of("e", "m", "c5").score(null).status(ResultStatus.ERROR).build());
        ModelEntry model = Leaderboard.compute(records, DEFAULTS).eval("e").orElseThrow().models().get(0);
        ScorerEntry scorer = model.scorers().get(0);

        // (2·1 + 1·0 + 1·0.5) / (2 + 1 + 1): c3 abstained and c5 errored, so neither is in the mean or the count.
        assertThat(scorer.accuracy().value()).isCloseTo(0.625, within(1e-12));
        assertThat(scorer.accuracy().n()).isEqualTo(3);
        assertThat(scorer.accuracy().method()).isEqualTo(Estimate.BOOTSTRAP);
        assertThat(scorer.notApplicable()).isEqualTo(1);
        assertThat(scorer.errors()).isEqualTo(1);
        assertThat(scorer.results()).isEqualTo(5);
        // c1 passed; c2 and c4 failed.
        assertThat(scorer.passRate().value()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(model.accuracy().value()).isCloseTo(0.625, within(1e-12));
        assertThat(model.errors()).isEqualTo(1);
    }

    @Test
    void binaryScoresWithEqualWeightsGetAWilsonInterval() {
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            records.add(Results.binary("e", "m", "c" + i, i < 7));
        }
        Estimate accuracy = Leaderboard.compute(records, DEFAULTS).evals().get(0).models().get(0).accuracy();
        assertThat(accuracy.method()).isEqualTo(Estimate.WILSON);
        assertThat(accuracy.low()).isCloseTo(0.3968, within(5e-4));
        assertThat(accuracy.high()).isCloseTo(0.8922, within(5e-4));
    }

    @Test
    void costAndTokensAreCountedOncePerCallNotPerScorer() {
        List<ResultRecord> records = new ArrayList<>();
        for (String scorer : List.of("exact_match", "contains", "tone")) {
            records.add(Results.of("e", "m", "c1").scorer(scorer).cost(0.01).tokens(100, 20).latency(300L).build());
            records.add(Results.of("e", "m", "c2").scorer(scorer).cost(0.03).tokens(200, 40).latency(100L).build());
            records.add(Results.of("e", "m", "c3").scorer(scorer).cost(0.0).tokens(0, 0).latency(null).cached(true)
                    .build());
        }
        ModelEntry model = Leaderboard.compute(records, DEFAULTS).evals().get(0).models().get(0);
        assertThat(model.calls()).isEqualTo(3);
        assertThat(model.costUsd()).isCloseTo(0.04, within(1e-12));
        assertThat(model.costPerCase().value()).isCloseTo(0.04 / 3, within(1e-12));
        assertThat(model.tokensIn()).isEqualTo(300);
        assertThat(model.tokensOut()).isEqualTo(60);
        assertThat(model.tokensPerCase()).isCloseTo(120.0, within(1e-12));
        // The cached call has no latency: p50 of {100, 300}.
        assertThat(model.latencyCalls()).isEqualTo(2);
        assertThat(model.latencyP50Ms()).isEqualTo(200.0);
        assertThat(model.latencyP95Ms()).isCloseTo(290.0, within(1e-9));
    }

    @Test
    void theTimeCallsWaitedForTheirTurnIsShownApartFromTheLatency() throws Exception {
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            // paced: each call 100 ms at the model, and 0 to 900 ms in the queue before it
            records.add(Results.of("e", "paced", "c" + i).latency(100L).queue(i * 100L).build());
            records.add(Results.of("e", "free", "c" + i).latency(100L).build());
        }
        Leaderboard leaderboard = Leaderboard.compute(records, DEFAULTS);
        ModelEntry paced = leaderboard.evals().get(0).models().stream().filter(m -> m.model().equals("paced"))
                .findFirst().orElseThrow();
        ModelEntry free = leaderboard.evals().get(0).models().stream().filter(m -> m.model().equals("free"))
                .findFirst().orElseThrow();

        assertThat(paced.latencyP95Ms()).isEqualTo(100.0);
        assertThat(paced.queueP50Ms()).isEqualTo(450.0);
        assertThat(paced.queueP95Ms()).isCloseTo(855.0, within(1e-9));
        assertThat(free.queueP95Ms()).isNaN();
        assertThat(leaderboard.toConsoleTable()).contains("queue p95 ms", "855", "queue: time calls waited");
        assertThat(leaderboard.toHtml()).contains("queue p95 ms</th>");
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(leaderboard.toJson());
        for (com.fasterxml.jackson.databind.JsonNode model : json.path("evals").get(0).path("models")) {
            assertThat(model.path("queueP95Ms").isMissingNode()).as("%s", model.path("model"))
                    .isEqualTo(model.path("model").asText().equals("free"));
            if (model.path("model").asText().equals("paced")) {
                assertThat(model.path("queueP50Ms").asDouble()).isEqualTo(450.0);
                assertThat(model.path("queueP95Ms").asDouble()).isCloseTo(855.0, within(1e-9));
            }
        }
        String unpaced = Leaderboard.compute(records.stream().filter(r -> r.model().equals("free")).toList(),
                DEFAULTS).toConsoleTable();
        assertThat(unpaced).doesNotContain("queue");
    }

    @Test
    void customMetricsAreAveragedPerCaseThenOverCases() {
        List<ResultRecord> records = List.of(
                Results.of("e", "m", "c1").metric("citation_rate", 1.0).build(),
                Results.of("e", "m", "c1").scorer("other").metric("citation_rate", 0.5).build(),
                Results.of("e", "m", "c2").metric("citation_rate", 0.0).build());
        ModelEntry model = Leaderboard.compute(records, DEFAULTS).evals().get(0).models().get(0);
        // c1: (1.0 + 0.5) / 2 = 0.75; c2: 0.0; mean 0.375.
        assertThat(model.metrics().get("citation_rate").value()).isCloseTo(0.375, within(1e-12));
        assertThat(model.scorer("exact_match").orElseThrow().metrics().get("citation_rate").value())
                .isCloseTo(0.5, within(1e-12));
    }

    @Test
    void compositeNormalisesThreeModelsAndRanksThem() {
        // accuracy a 0.9, b 0.6, c 0.3; cost per case a 0.03, b 0.01, c 0.02.
        List<ResultRecord> records = new ArrayList<>();
        addModel(records, "a", 9, 0.03);
        addModel(records, "b", 6, 0.01);
        addModel(records, "c", 3, 0.02);
        LeaderboardSettings settings = DEFAULTS.withWeights(Map.of("accuracy", 0.5, "cost", 0.5));
        EvalLeaderboard eval = Leaderboard.compute(records, settings).evals().get(0);

        // accuracy is bounded, so it keeps its value: a 0.9, b 0.6, c 0.3; cost is rescaled across the models
        // (lower is better): a 0, b 1, c 0.5. composite = (0.5·acc + 0.5·cost) / 1: a 0.45, b 0.8, c 0.4.
        assertThat(eval.models()).extracting(ModelEntry::model).containsExactly("b", "a", "c");
        assertThat(eval.models()).extracting(ModelEntry::rank).containsExactly(1, 2, 3);
        assertThat(eval.model("b").orElseThrow().composite()).isCloseTo(0.8, within(1e-12));
        assertThat(eval.model("a").orElseThrow().composite()).isCloseTo(0.45, within(1e-12));
        assertThat(eval.model("c").orElseThrow().composite()).isCloseTo(0.4, within(1e-12));
        assertThat(eval.model("a").orElseThrow().normalized().get("accuracy")).isCloseTo(0.9, within(1e-12));
        assertThat(eval.model("c").orElseThrow().normalized().get("cost")).isCloseTo(0.5, within(1e-12));
        // a (most accurate) and b (cheapest) are on the frontier; c is dominated by b.
        assertThat(eval.paretoFrontier()).containsExactly("b", "a");
        assertThat(eval.model("c").orElseThrow().onParetoFrontier()).isFalse();
        assertThat(eval.models().get(0).vsBest()).isNull();
        assertThat(eval.model("a").orElseThrow().vsBest().n()).isEqualTo(10);
    }

    @Test
    void defaultWeightIsAccuracyAlone() {
        List<ResultRecord> records = new ArrayList<>();
        addModel(records, "a", 9, 0.03);
        addModel(records, "b", 6, 0.01);
        EvalLeaderboard eval = Leaderboard.compute(records, DEFAULTS).evals().get(0);
        assertThat(eval.weights()).containsExactly(Map.entry("accuracy", 1.0));
        assertThat(eval.models()).extracting(ModelEntry::model).containsExactly("a", "b");
        // the composite of accuracy alone is the accuracy, not where it sits between the models
        assertThat(eval.models().get(0).composite()).isCloseTo(0.9, within(1e-12));
        assertThat(eval.models().get(1).composite()).isCloseTo(0.6, within(1e-12));
    }

    @Test
    void boundedMetricsKeepTheirValueAndUnboundedOnesAreRescaled() {
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            records.add(Results.of("e", "a", "c" + i).metric("hallucination_rate", 0.25).metric("words", 40).build());
            records.add(Results.of("e", "b", "c" + i).metric("hallucination_rate", 0.5).metric("words", 20).build());
        }
        LeaderboardSettings settings = DEFAULTS.withWeights(Map.of("hallucination_rate", 1.0, "words", 1.0))
                .withLowerIsBetter(java.util.Set.of("hallucination_rate", "words"))
                .withBounded(java.util.Set.of("hallucination_rate"));
        EvalLeaderboard eval = Leaderboard.compute(records, settings).evals().get(0);
        ModelEntry a = eval.model("a").orElseThrow();
        ModelEntry b = eval.model("b").orElseThrow();
        // bounded and lower-better: 1 − x; unbounded words: min–max across the two models
        assertThat(a.normalized()).containsEntry("hallucination_rate", 0.75).containsEntry("words", 0.0);
        assertThat(b.normalized()).containsEntry("hallucination_rate", 0.5).containsEntry("words", 1.0);
        assertThat(b.composite()).isCloseTo(0.75, within(1e-12));
        assertThat(a.composite()).isCloseTo(0.375, within(1e-12));

        // declared bounded but out of [0, 1]: rescaled, with a warning
        EvalLeaderboard wrong = Leaderboard.compute(records, DEFAULTS.withWeights(Map.of("words", 1.0))
                .withBounded(java.util.Set.of("words"))).evals().get(0);
        assertThat(wrong.model("a").orElseThrow().normalized()).containsEntry("words", 1.0);
        assertThat(wrong.warnings()).contains("words is declared bounded (arena.metrics.bounded) but some model's "
                + "value lies outside [0, 1]; rescaled across models instead");
    }

    @Test
    void erroredResultsAreCountedBesideAccuracyAndToldApart() {
        // sim_small: exact_match passes c0..c2; tone throws on c0..c2; the call of c3 failed (no output).
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            records.add(Results.of("e", "sim_small", "c" + i).build());
            records.add(Results.of("e", "sim_small", "c" + i).scorer("tone").score(null).status(ResultStatus.ERROR)
                    .build());
        }
        for (String scorer : List.of("exact_match", "tone")) {
            records.add(Results.of("e", "sim_small", "c3").scorer(scorer).score(null).status(ResultStatus.ERROR)
                    .output(null).build());
        }
        EvalLeaderboard eval = Leaderboard.compute(records, DEFAULTS).evals().get(0);
        ModelEntry model = eval.models().get(0);

        assertThat(model.accuracy().value()).isEqualTo(1.0);
        assertThat(model.errors()).isEqualTo(5);
        assertThat(model.callErrors()).isEqualTo(1);
        assertThat(model.scorerErrors()).isEqualTo(3);
        ScorerEntry tone = model.scorer("tone").orElseThrow();
        assertThat(tone.errors()).isEqualTo(4);
        assertThat(tone.callErrors()).isEqualTo(1);
        assertThat(tone.scorerErrors()).isEqualTo(3);
        assertThat(tone.accuracy().present()).isFalse();
        assertThat(model.scorer("exact_match").orElseThrow().errors()).isEqualTo(1);
        assertThat(eval.warnings()).contains(
                "sim_small: 5 errored results, kept out of accuracy: 1 model call failed before scoring (the model,"
                        + " the task, a hook or an unreadable row): 2 results; 3 scorer errors (tone 3)",
                "sim_small / tone: every result errored (4), so it has no accuracy and the model's accuracy comes"
                        + " from its other scorers alone");
    }

    @Test
    void anEvalWithNothingScoredSaysSoOnceInsteadOfBlamingWeightsOrSharedCases() {
        // what an eval that cannot run leaves (a labels file it cannot read): one errored result per model, no case
        List<ResultRecord> records = List.of(
                Results.of("e", "sim_small", "").score(null).status(ResultStatus.ERROR).build(),
                Results.of("e", "sim_large", "").score(null).status(ResultStatus.ERROR).build());

        EvalLeaderboard eval = Leaderboard.compute(records, DEFAULTS).evals().get(0);

        assertThat(eval.warnings()).containsExactly("nothing of e was scored: 2 results errored (each error names "
                + "its cause: its test, results.jsonl), so there is nothing to rank or compare");
    }

    @Test
    void errorsOutnumberingScoredCasesAreSaidWhereverTheAccuracyIsShown() {
        // accuracy 1.000 over n=2 with 3 errors: the accuracy speaks for the minority of what ran
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            records.add(Results.of("e", "sim_small", "c" + i).build());
        }
        for (int i = 2; i < 5; i++) {
            records.add(Results.of("e", "sim_small", "c" + i).score(null).status(ResultStatus.ERROR).build());
        }
        records.add(Results.of("e", "sim_large", "c0").build());
        Leaderboard leaderboard = Leaderboard.compute(records, DEFAULTS);
        EvalLeaderboard eval = leaderboard.evals().get(0);
        ModelEntry small = eval.models().stream().filter(m -> m.model().equals("sim_small")).findFirst().orElseThrow();

        assertThat(small.errorsOutnumberScored()).isTrue();
        assertThat(eval.models()).filteredOn(m -> m.model().equals("sim_large"))
                .allMatch(m -> !m.errorsOutnumberScored());
        assertThat(eval.warnings()).contains("sim_small: errors outnumber scored cases (3 errors, 2 scored): its "
                + "accuracy covers the minority of its results");
        assertThat(leaderboard.toConsoleTable()).contains("1.000 !", "accuracy !: errors outnumber scored cases");
        assertThat(leaderboard.toHtml()).contains("1.000 <span class=\"warn\">(errors outnumber scored cases "
                + "(3 errors, 2 scored))</span>");
        assertThat(leaderboard.toJson().replace(" ", "")).contains("\"errorsOutnumberScored\":true",
                "\"errorsOutnumberScored\":false");
    }

    @Test
    void aDimensionSomeModelLacksIsLeftOutWithAWarning() {
        List<ResultRecord> records = new ArrayList<>();
        addModel(records, "a", 9, 0.03);
        records.add(Results.of("e", "b", "c0").metric("citation_rate", 0.8).build());
        EvalLeaderboard eval = Leaderboard.compute(records,
                DEFAULTS.withWeights(Map.of("accuracy", 1.0, "citation_rate", 1.0, "typo", 1.0))).evals().get(0);
        assertThat(eval.weights()).containsOnlyKeys("accuracy");
        assertThat(eval.warnings()).anyMatch(w -> w.startsWith("citation_rate left out of the composite: missing for a"));
        assertThat(eval.warnings()).anyMatch(w -> w.startsWith("weight on typo but no model has it"));
    }

    @Test
    void aClearDifferenceIsSignificantAndASmallOneWarns() {
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String id = "c" + i;
            records.add(Results.binary("e", "best", id, true));
            records.add(Results.binary("e", "worse", id, i < 4));
            records.add(Results.binary("e", "close", id, i != 0));
        }
        EvalLeaderboard eval = Leaderboard.compute(records, DEFAULTS).evals().get(0);
        PairedTest worse = eval.model("worse").orElseThrow().vsBest();
        // 6 discordant pairs, all for the best model: 2 · 0.5^6 = 0.03125.
        assertThat(worse.test()).isEqualTo(PairedTest.MCNEMAR);
        assertThat(worse.b()).isZero();
        assertThat(worse.c()).isEqualTo(6);
        assertThat(worse.p()).isCloseTo(0.03125, within(1e-12));
        assertThat(worse.significant()).isTrue();
        PairedTest close = eval.model("close").orElseThrow().vsBest();
        assertThat(close.p()).isEqualTo(1.0);
        assertThat(eval.warnings()).anyMatch(w -> w.startsWith("sample too small to separate close from best: 10 "
                + "shared cases, fewer than 30"));
        assertThat(eval.warnings()).noneMatch(w -> w.contains("separate worse"));
    }

    @Test
    void repeatsAreReducedPerCaseAndFlakinessIsReported() {
        List<ResultRecord> records = new ArrayList<>();
        for (int r = 0; r < 5; r++) {
            records.add(Results.of("e", "m", "c1").repeat(r).score(r < 2 ? 1.0 : 0.0).build());
            records.add(Results.of("e", "m", "c2").repeat(r).score(1.0).build());
        }
        ScorerEntry mean = Leaderboard.compute(records, DEFAULTS).evals().get(0).models().get(0).scorers().get(0);
        // c1: mean 0.4; c2: 1.0.
        assertThat(mean.accuracy().value()).isCloseTo(0.7, within(1e-12));
        assertThat(mean.flaky()).containsExactly(new FlakyCase("c1", 2, 5, 0.0, 1.0, Math.sqrt(0.24)));

        ScorerEntry passAt3 = Leaderboard.compute(records, DEFAULTS.withReducer(RepeatReducer.parse("pass@3")))
                .evals().get(0).models().get(0).scorers().get(0);
        // c1: 1 − C(3,3)/C(5,3) = 0.9; c2: 1.
        assertThat(passAt3.accuracy().value()).isCloseTo(0.95, within(1e-12));
        assertThat(passAt3.passRate().value()).isEqualTo(1.0);

        ScorerEntry passHat2 = Leaderboard.compute(records, DEFAULTS.withReducer(RepeatReducer.parse("pass^2")))
                .evals().get(0).models().get(0).scorers().get(0);
        // c1: C(2,2)/C(5,2) = 0.1; c2: 1.
        assertThat(passHat2.accuracy().value()).isCloseTo(0.55, within(1e-12));
        assertThat(passHat2.passRate().value()).isEqualTo(0.5);

        ModelEntry model = Leaderboard.compute(records, DEFAULTS).evals().get(0).models().get(0);
        assertThat(model.calls()).isEqualTo(10);
        assertThat(model.costPerCase().value()).isCloseTo(0.005, within(1e-12));
    }

    @Test
    void passAtKWithTooFewRepeatsLowersKAndSaysSo() {
        List<ResultRecord> records = List.of(Results.of("e", "m", "c1").repeat(0).score(0.0).build(),
                Results.of("e", "m", "c1").repeat(1).score(1.0).build());
        EvalLeaderboard eval = Leaderboard.compute(records, DEFAULTS.withReducer(RepeatReducer.parse("pass@5")))
                .evals().get(0);
        // k lowered to n = 2: 1 − C(1,2)/C(2,2) = 1.
        assertThat(eval.models().get(0).accuracy().value()).isEqualTo(1.0);
        assertThat(eval.warnings()).anyMatch(w -> w.contains("fewer than 5 counted repeats"));
    }

    @Test
    void theResultDoesNotDependOnArrivalOrder() {
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            records.add(Results.of("e", "a", "c" + i).score((i % 4) / 3.0).status(ResultStatus.FAILED).build());
            records.add(Results.of("e", "b", "c" + i).score((i % 3) / 2.0).status(ResultStatus.FAILED)
                    .metric("m", i).build());
            records.add(Results.of("f", "a", "c" + i).score(1.0).build());
        }
        String json = Leaderboard.compute(records, DEFAULTS).toJson();
        List<ResultRecord> shuffled = new ArrayList<>(records);
        Collections.shuffle(shuffled, new Random(3));
        assertThat(Leaderboard.compute(shuffled, DEFAULTS).toJson()).isEqualTo(json);
        assertThat(Leaderboard.compute(records, DEFAULTS.withSeed(43)).toJson()).isNotEqualTo(json);
    }

    @Test
    void noRecordsMeansNoEvals() {
        assertThat(Leaderboard.compute(List.of(), DEFAULTS).evals()).isEmpty();
    }

    /** Ten cases of model {@code name} in eval e, {@code passes} of them passing, each call costing {@code cost}. */
    static void addModel(List<ResultRecord> records, String name, int passes, double cost) {
        for (int i = 0; i < 10; i++) {
            records.add(Results.of("e", name, "c" + i).score(i < passes ? 1.0 : 0.0).cost(cost).build());
        }
    }
}
