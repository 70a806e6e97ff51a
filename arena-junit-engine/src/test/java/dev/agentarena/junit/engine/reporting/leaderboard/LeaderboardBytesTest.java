package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * Pins {@code leaderboard.json} and {@code leaderboard.html} byte for byte, as files, for a run with everything a
 * leaderboard reads: two evals, three models, three scorers (one of two versions), repeats with a reducer, custom
 * metrics (bounded and not), weights, errors of the call and of the scorer, not-run and not-applicable results,
 * cached calls, costs, tokens, latencies, non-ASCII names and ids, replaced results and a shuffled arrival order. The
 * expected files were written by the accumulator as it was before its per-result cost was cut (issue 27 point 5): any
 * change to how results are kept, read back or aggregated must leave them as they are. Each settings is checked with
 * the results kept in memory and spilled to a temporary file.
 */
class LeaderboardBytesTest {

    private static final String RESOURCES = "/dev/agentarena/junit/engine/reporting/leaderboard/pinned/";

    @TempDir
    Path directory;

    @ParameterizedTest(name = "{0}, memory limit {1}")
    @CsvSource({"mean, 4194304", "mean, 512", "pass@2, 4194304", "pass@2, 700"})
    void theLeaderboardFilesOfARichRunStayByteForByte(String reducer, int memoryLimit) throws IOException {
        LeaderboardSettings settings = settings(reducer);
        try (LeaderboardAccumulator accumulator = new LeaderboardAccumulator(settings, memoryLimit)) {
            records().forEach(accumulator::accept);
            accumulator.build().writeTo(directory);
        }
        String name = reducer.replace('@', '-');
        assertThat(Files.readString(directory.resolve(Leaderboard.JSON_FILE), StandardCharsets.UTF_8))
                .isEqualTo(pinned(name + ".json"));
        assertThat(Files.readString(directory.resolve(Leaderboard.HTML_FILE), StandardCharsets.UTF_8))
                .isEqualTo(pinned(name + ".html"));
    }

    /** The settings the pinned files were written with, but for the reducer. */
    static LeaderboardSettings settings(String reducer) {
        return LeaderboardSettings.defaults()
                .withReducer(RepeatReducer.parse(reducer))
                .withWeights(weights())
                .withBounded(Set.of("faithfulness"))
                .withLowerIsBetter(Set.of("steps"));
    }

    /** In a fixed order: the files list the weights in the order given. */
    private static Map<String, Double> weights() {
        Map<String, Double> weights = new LinkedHashMap<>();
        weights.put(LeaderboardSettings.ACCURACY, 2.0);
        weights.put("steps", 1.0);
        weights.put(LeaderboardSettings.COST, 0.5);
        return weights;
    }

    private static String pinned(String name) throws IOException {
        try (InputStream in = LeaderboardBytesTest.class.getResourceAsStream(RESOURCES + name)) {
            assertThat(in).as("pinned file " + name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The rich run: the same records, in the same (shuffled) order, every time. */
    static List<ResultRecord> records() {
        Random random = new Random(27);
        List<List<ResultRecord>> cases = new ArrayList<>();
        String[] evals = {"support-triage", "rés-umé"};
        String[] models = {"model-a", "model-b", "gpt-ü"};
        for (String eval : evals) {
            for (int m = 0; m < models.length; m++) {
                String model = models[m];
                for (int c = 0; c < 40; c++) {
                    String caseId = (c % 7 == 3 ? "cas-é-" : "case-") + (c * 37 % 41);
                    double weight = eval.startsWith("rés") && c % 5 == 0 ? 2.5 : 1.0;
                    List<ResultRecord> results = new ArrayList<>();
                    int repeats = c % 4 == 0 ? 1 : 3;
                    for (int r = 0; r < repeats; r++) {
                        boolean cached = c % 9 == 0;
                        Long latency = c % 11 == 0 ? null : (long) (50 + random.nextInt(900));
                        long tokensIn = c % 13 == 0 ? 0 : 20 + random.nextInt(200);
                        long tokensOut = 5 + random.nextInt(50);
                        double cost = c % 13 == 0 ? 0 : random.nextInt(1000) / 100000.0;
                        boolean callFailed = c % 17 == 5 && r == 1;
                        boolean notRun = c == 38 && m == 2;
                        for (String scorer : new String[] {"exact_match", "judge", "contains"}) {
                            if (scorer.equals("contains") && model.equals("model-b") && c > 30) {
                                continue;
                            }
                            Results result = Results.of(eval, model, caseId).scorer(scorer).repeat(r)
                                    .version(scorer.equals("judge") && c > 25 && m == 1 ? "v2" : "v1")
                                    .latency(latency).tokens(tokensIn, tokensOut).cost(cost).cached(cached)
                                    .weight(weight);
                            if (c % 6 == 1) {
                                result.cachedTokens(tokensIn / 2);
                            }
                            double p = 0.45 + 0.2 * m;
                            if (notRun) {
                                result.score(null).status(ResultStatus.NOT_RUN).output(null);
                            }
                            else if (callFailed) {
                                result.score(null).status(ResultStatus.ERROR).output(null);
                            }
                            else if (scorer.equals("judge") && c % 10 == 7) {
                                result.score(null).status(ResultStatus.ERROR);
                            }
                            else if (scorer.equals("contains") && c % 8 == 2) {
                                result.score(null);
                            }
                            else if (scorer.equals("judge")) {
                                result.score(Math.round(random.nextDouble() * (0.5 + m * 0.25) * 100) / 100.0)
                                        .metric("faithfulness", random.nextDouble())
                                        .metric("steps", 1 + random.nextInt(6));
                            }
                            else {
                                result.score(random.nextDouble() < p ? 1.0 : 0.0);
                                if (scorer.equals("exact_match") && c % 3 == 0) {
                                    result.metric("steps", 2 + random.nextInt(3));
                                }
                            }
                            results.add(result.build());
                        }
                    }
                    if (c % 10 == 4) {
                        // a result arriving again replaces the first
                        results.add(Results.of(eval, model, caseId).scorer("exact_match").repeat(0).score(1.0)
                                .weight(weight).build());
                    }
                    cases.add(results);
                }
            }
        }
        Collections.shuffle(cases, random);
        List<ResultRecord> records = new ArrayList<>();
        cases.forEach(records::addAll);
        return records;
    }
}
