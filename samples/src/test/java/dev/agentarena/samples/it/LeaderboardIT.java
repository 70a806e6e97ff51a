package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads {@code target/arena/leaderboard.json}, written at the end of the Surefire run of the samples, and checks it
 * against {@code results.jsonl} of the same run: accuracies recomputed here from the result lines, Wilson intervals
 * by formula, and a ranking consistent with the composites.
 */
class LeaderboardIT {

    private static final Path DIRECTORY = Paths.get("target/arena");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double Z = 1.959963984540054;

    private static JsonNode leaderboard;
    /** Counted results: eval → model → scorer → case → scores of its repeats. */
    private static final Map<String, Map<String, Map<String, Map<String, List<Double>>>>> COUNTED = new TreeMap<>();
    /** Case weights: eval|case → weight. */
    private static final Map<String, Double> WEIGHTS = new TreeMap<>();

    @BeforeAll
    static void read() throws Exception {
        assertThat(DIRECTORY.resolve("leaderboard.json")).as("run `mvn verify` so Surefire runs the samples first")
                .exists();
        leaderboard = JSON.readTree(DIRECTORY.resolve("leaderboard.json").toFile());
        // a rerun result replaces the earlier one of the same eval, model, case, scorer and repeat
        Map<String, JsonNode> latest = new LinkedHashMap<>();
        for (String line : Files.readAllLines(DIRECTORY.resolve("results.jsonl"))) {
            JsonNode result = JSON.readTree(line);
            latest.put(String.join("|", result.get("eval").asText(), result.get("model").asText(),
                    result.get("case_id").asText(), result.get("scorer").asText(), result.get("repeat").asText()),
                    result);
        }
        for (JsonNode result : latest.values()) {
            WEIGHTS.put(result.get("eval").asText() + "|" + result.get("case_id").asText(),
                    result.get("weight").asDouble());
            String status = result.get("status").asText();
            if (result.get("score").isNull() || !(status.equals("passed") || status.equals("failed"))) {
                continue;
            }
            COUNTED.computeIfAbsent(result.get("eval").asText(), e -> new TreeMap<>())
                    .computeIfAbsent(result.get("model").asText(), m -> new TreeMap<>())
                    .computeIfAbsent(result.get("scorer").asText(), s -> new TreeMap<>())
                    .computeIfAbsent(result.get("case_id").asText(), c -> new ArrayList<>())
                    .add(result.get("score").asDouble());
        }
    }

    @Test
    void ranksTheTriageSampleOnBothSimulatedModels() {
        JsonNode triage = eval("support-triage");
        List<String> models = new ArrayList<>();
        triage.get("models").forEach(m -> models.add(m.get("model").asText()));
        assertThat(models).containsExactlyInAnyOrder("sim_small", "sim_large");
        assertThat(leaderboard.get("format").asText()).isEqualTo("agent-arena-leaderboard/1");
    }

    @Test
    void everyEvalIsRankedByCompositeWithThePairedTestAgainstTheBest() {
        assertThat(leaderboard.get("evals")).isNotEmpty();
        for (JsonNode eval : leaderboard.get("evals")) {
            JsonNode models = eval.get("models");
            for (int i = 0; i < models.size(); i++) {
                JsonNode model = models.get(i);
                assertThat(model.get("rank").asInt()).isEqualTo(i + 1);
                assertThat(model.get("vsBest").isNull()).isEqualTo(i == 0);
                if (i > 0) {
                    assertThat(model.get("composite").asDouble())
                            .isLessThanOrEqualTo(models.get(i - 1).get("composite").asDouble());
                }
            }
        }
    }

    @Test
    void accuraciesAndIntervalsAgreeWithTheResultsFile() {
        for (JsonNode eval : leaderboard.get("evals")) {
            String name = eval.get("eval").asText();
            assertThat(COUNTED).containsKey(name);
            for (JsonNode model : eval.get("models")) {
                Map<String, Map<String, List<Double>>> scorers = COUNTED.get(name).get(model.get("model").asText());
                // per scorer: mean over repeats per case, then the mean over cases weighted by case weight
                Map<String, List<Double>> caseScores = new TreeMap<>();
                for (JsonNode scorer : model.get("scorers")) {
                    Map<String, List<Double>> cases = scorers.get(scorer.get("scorer").asText());
                    double sum = 0;
                    double weights = 0;
                    int passed = 0;
                    boolean binary = true;
                    for (Map.Entry<String, List<Double>> c : cases.entrySet()) {
                        double mean = c.getValue().stream().mapToDouble(Double::doubleValue).average().orElseThrow();
                        double weight = WEIGHTS.get(name + "|" + c.getKey());
                        sum += weight * mean;
                        weights += weight;
                        passed += mean == 1.0 ? 1 : 0;
                        binary &= mean == 0.0 || mean == 1.0;
                        caseScores.computeIfAbsent(c.getKey(), k -> new ArrayList<>()).add(mean);
                    }
                    boolean equalWeights = cases.keySet().stream().map(c -> WEIGHTS.get(name + "|" + c)).distinct()
                            .count() == 1;
                    JsonNode accuracy = scorer.get("accuracy");
                    assertThat(accuracy.get("n").asInt()).isEqualTo(cases.size());
                    assertThat(accuracy.get("value").asDouble()).as(name + " " + scorer)
                            .isCloseTo(sum / weights, within(1e-9));
                    if (binary && equalWeights) {
                        double[] wilson = wilson(passed, cases.size());
                        assertThat(accuracy.get("method").asText()).isEqualTo("wilson");
                        assertThat(accuracy.get("ciLow").asDouble()).isCloseTo(wilson[0], within(1e-9));
                        assertThat(accuracy.get("ciHigh").asDouble()).isCloseTo(wilson[1], within(1e-9));
                    }
                }
                // per model: a case's score is the mean of its scorers' scores
                double weightedSum = 0;
                double weightSum = 0;
                for (Map.Entry<String, List<Double>> c : caseScores.entrySet()) {
                    double weight = WEIGHTS.get(name + "|" + c.getKey());
                    weightedSum += weight * c.getValue().stream().mapToDouble(Double::doubleValue).average().orElseThrow();
                    weightSum += weight;
                }
                double modelAccuracy = weightedSum / weightSum;
                JsonNode accuracy = model.get("accuracy");
                assertThat(accuracy.get("value").asDouble()).isCloseTo(modelAccuracy, within(1e-9));
                assertThat(accuracy.get("n").asInt()).isEqualTo(caseScores.size());
                assertThat(accuracy.get("ciLow").asDouble()).isLessThanOrEqualTo(modelAccuracy);
                assertThat(accuracy.get("ciHigh").asDouble()).isGreaterThanOrEqualTo(modelAccuracy);
            }
        }
    }

    @Test
    void theHtmlReportIsSelfContained() throws Exception {
        String html = Files.readString(DIRECTORY.resolve("leaderboard.html"));
        assertThat(html).contains("support-triage", "sim_small", "sim_large", "<svg").doesNotContain("<script",
                "http://", "https://");
    }

    private static JsonNode eval(String name) {
        for (JsonNode eval : leaderboard.get("evals")) {
            if (eval.get("eval").asText().equals(name)) {
                return eval;
            }
        }
        throw new AssertionError("no eval " + name + " in leaderboard.json");
    }

    private static double[] wilson(int successes, int n) {
        double p = (double) successes / n;
        double denominator = 1 + Z * Z / n;
        double centre = p + Z * Z / (2.0 * n);
        double half = Z * Math.sqrt(p * (1 - p) / n + Z * Z / (4.0 * n * n));
        return new double[] {Math.max(0, (centre - half) / denominator), Math.min(1, (centre + half) / denominator)};
    }
}
