package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.reporting.statistics.Bootstrap;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * A large run's leaderboard: results kept in a temporary file past the accumulator's memory limit give the very same
 * leaderboard as results kept in memory, and a bootstrap over identical values (a million cases that cost nothing)
 * gives bit for bit what resampling gives, as does the cost per case a leaderboard gives without resampling when every
 * case cost the same.
 */
class LeaderboardMemoryTest {

    private static final LeaderboardSettings SETTINGS = LeaderboardSettings.defaults()
            .withWeights(new java.util.LinkedHashMap<>(java.util.Map.of(LeaderboardSettings.ACCURACY, 1.0)));

    @Test
    void resultsKeptInAFileGiveTheLeaderboardOfResultsKeptInMemory() {
        List<ResultRecord> records = mixedRecords();
        try (LeaderboardAccumulator memory = new LeaderboardAccumulator(SETTINGS);
                LeaderboardAccumulator file = new LeaderboardAccumulator(SETTINGS, 1024)) {
            records.forEach(memory::accept);
            records.forEach(file::accept);

            assertThat(memory.spilled()).isFalse();
            assertThat(file.spilled()).isTrue();
            assertThat(file.size()).isEqualTo(records.size());
            String json = memory.build().toJson();
            assertThat(file.build().toJson()).isEqualTo(json);
            // a build reads the results back without consuming them
            assertThat(file.build().toJson()).isEqualTo(json);
            assertThat(json).contains("\"flaky\"", "\"notRun\" : 6", "steps");
        }
    }

    @Test
    void closingDeletesTheTemporaryFileAndForgetsTheResults() {
        LeaderboardAccumulator file = new LeaderboardAccumulator(SETTINGS, 256);
        mixedRecords().forEach(file::accept);
        Path spilled = file.spillFile();
        assertThat(spilled).isRegularFile();
        assertThat(spilled.getFileName().toString()).startsWith("arena-leaderboard-");
        file.close();

        assertThat(spilled).doesNotExist();
        assertThat(file.size()).isZero();
        assertThat(file.build().evals()).isEmpty();
    }

    @Test
    void aLaterResultForTheSameCaseAndRepeatStillReplacesTheEarlierOneFromTheFile() {
        try (LeaderboardAccumulator file = new LeaderboardAccumulator(SETTINGS, 64)) {
            for (int i = 0; i < 40; i++) {
                file.accept(Results.of("e", "m", "c" + i).score(0.0).build());
            }
            for (int i = 0; i < 40; i++) {
                file.accept(Results.of("e", "m", "c" + i).score(1.0).build());
            }
            assertThat(file.build().evals().get(0).models().get(0).accuracy().value()).isEqualTo(1.0);
        }
    }

    @Test
    void idsOfAnyShapeComeBackFromTheFileAsTheyWereInStringOrder() {
        List<String> ids = new ArrayList<>(List.of("s\uD800", "s\uDC00", "\uD83D\uDE00", "\uFFFF", "", "a\u0000b",
                "a\u001Bb", "\u00E9t\u00E9", "x".repeat(200_000), "x".repeat(200_001)));
        try (LeaderboardAccumulator file = new LeaderboardAccumulator(SETTINGS, 64)) {
            for (String id : ids) {
                file.accept(Results.of("e", "m", id).build());
                file.accept(Results.of("e", "m", id).scorer("judge").build());
            }
            assertThat(file.spilled()).isTrue();
            var cases = file.build().evals().get(0).models().get(0).caseScores();

            List<String> back = new ArrayList<>();
            for (int i = 0; i < cases.size(); i++) {
                back.add(cases.id(i));
            }
            java.util.Collections.sort(ids);
            assertThat(back).isEqualTo(ids);
        }
    }

    @Test
    void resamplingIdenticalValuesGivesTheirMeanBitForBitWithoutDrawing() {
        for (double value : new double[] {0.0, 0.1, 1.0 / 3, 2.5e-7}) {
            double[] values = new double[257];
            java.util.Arrays.fill(values, value);
            double[] weights = new double[values.length];
            java.util.Arrays.fill(weights, 0.7);
            double[] shortcut = Bootstrap.resampledMeans(values, weights, 1L, 50);
            // the same draws, done by hand: every resample adds the same terms in the same order
            Random random = new Random(1);
            int[] picks = new int[values.length];
            for (int b = 0; b < 50; b++) {
                for (int i = 0; i < picks.length; i++) {
                    picks[i] = random.nextInt(values.length);
                }
                assertThat(shortcut[b]).isEqualTo(Bootstrap.weightedMean(values, weights, picks));
            }
        }
    }

    @Test
    void theCostPerCaseIsTheBootstrapOfTheCasesCostsWhetherTheyAreEqualOrNot() {
        for (int n : new int[] {1, 2, 257}) {
            for (double first : new double[] {0.0, 0.003, 1.0 / 3}) {
                for (int differ : new int[] {-1, 0, n / 2, n - 1}) {
                    double[] costs = new double[n];
                    try (LeaderboardAccumulator accumulator = new LeaderboardAccumulator(SETTINGS)) {
                        for (int i = 0; i < n; i++) {
                            costs[i] = i == differ ? first + 0.25 : first;
                            accumulator.accept(Results.of("e", "m", "case-" + (1000 + i)).cost(costs[i]).build());
                        }
                        Estimate expected = Bootstrap.mean(costs, null, SETTINGS.seed(), "cost|e|m",
                                SETTINGS.resamples());
                        assertThat(accumulator.build().evals().get(0).models().get(0).costPerCase())
                                .as(n + " cases costing " + first + ", case " + differ + " more")
                                .isEqualTo(expected);
                    }
                }
            }
        }
    }

    /** Three evals' worth of variety: repeats, metrics, errors, not run, weights, cached calls, unicode ids. */
    private static List<ResultRecord> mixedRecords() {
        List<ResultRecord> records = new ArrayList<>();
        Random random = new Random(11);
        for (String model : List.of("a", "b")) {
            for (int i = 0; i < 60; i++) {
                String id = (i % 9 == 0 ? "ü-" : "") + "case-" + i;
                for (int r = 0; r < 3; r++) {
                    boolean notRun = i % 31 == 7;
                    boolean error = i % 23 == 5;
                    for (String scorer : List.of("exact", "judge")) {
                        Results result = Results.of("e", model, id).scorer(scorer).repeat(r)
                                .weight(i % 10 == 0 ? 2.0 : 1.0).cached(i % 7 == 0)
                                .latency(notRun ? null : 10L + random.nextInt(90))
                                .cost(model.equals("a") ? 0.0 : random.nextDouble() / 100);
                        if (notRun) {
                            result.status(ResultStatus.NOT_RUN).score(null);
                        }
                        else if (error) {
                            result.status(ResultStatus.ERROR).score(null);
                        }
                        else if (scorer.equals("exact")) {
                            result.score(random.nextDouble() < 0.7 ? 1.0 : 0.0);
                        }
                        else {
                            result.score(Math.round(random.nextDouble() * 100) / 100.0).metric("steps",
                                    random.nextInt(6));
                        }
                        records.add(result.build());
                    }
                }
            }
        }
        return records;
    }
}
