package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.ResultRecord;

class OutputsTest {

    private static Leaderboard leaderboard() {
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            records.add(Results.of("support", "<script>alert(1)</script>", "c" + i).score(i < 8 ? 1.0 : 0.0)
                    .cost(0.002).metric("citation_rate", 0.5).build());
            records.add(Results.of("support", "sim_small", "c" + i).score(i < 6 ? 1.0 : 0.0).cost(0.001)
                    .metric("citation_rate", 0.25).build());
        }
        return Leaderboard.compute(records, LeaderboardSettings.defaults());
    }

    @Test
    void htmlIsSelfContainedWithPlotsAndEscapesNames() {
        String html = leaderboard().toHtml();
        assertThat(html).startsWith("<!DOCTYPE html>");
        assertThat(html).contains("<style>").contains("<svg").contains("<polyline").contains("<circle");
        assertThat(html).contains("&lt;script&gt;alert(1)&lt;/script&gt;");
        assertThat(html).doesNotContain("<script").doesNotContain("http://").doesNotContain("https://")
                .doesNotContain("<link").doesNotContain("@import");
    }

    @Test
    void jsonHasStableFieldNames() throws Exception {
        JsonNode root = Json.MAPPER.readTree(leaderboard().toJson());
        assertThat(root.path("format").asText()).isEqualTo(Leaderboard.FORMAT);
        assertThat(root.path("settings").path("seed").asLong()).isEqualTo(42);
        JsonNode eval = root.path("evals").get(0);
        assertThat(eval.path("eval").asText()).isEqualTo("support");
        assertThat(eval.path("paretoFrontier")).hasSize(2);
        JsonNode best = eval.path("models").get(0);
        assertThat(best.path("model").asText()).isEqualTo("<script>alert(1)</script>");
        assertThat(best.path("rank").asInt()).isEqualTo(1);
        assertThat(best.path("accuracy").path("value").asDouble()).isEqualTo(0.8);
        assertThat(best.path("accuracy").path("method").asText()).isEqualTo("wilson");
        assertThat(best.path("accuracy").has("ciLow")).isTrue();
        assertThat(best.path("vsBest").isNull()).isTrue();
        assertThat(best.path("metrics").path("citation_rate").path("value").asDouble()).isEqualTo(0.5);
        assertThat(best.path("costUsd").asDouble()).isEqualTo(0.02, org.assertj.core.api.Assertions.within(1e-12));
        JsonNode second = eval.path("models").get(1);
        assertThat(second.path("vsBest").path("test").asText()).isEqualTo("mcnemar");
        assertThat(second.path("vsBest").path("c").asInt()).isEqualTo(2);
        assertThat(second.path("scorers").get(0).path("scorerVersion").asText()).isEqualTo("v1");
    }

    @Test
    void cachedPromptTokensShowBesideTheTokensOfEveryOutput() throws Exception {
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            records.add(Results.of("support", "openai:gpt-4o", "c" + i).tokens(100, 20).cachedTokens(40).build());
            records.add(Results.of("support", "sim_small", "c" + i).tokens(100, 20).build());
        }
        Leaderboard leaderboard = Leaderboard.compute(records, LeaderboardSettings.defaults());

        JsonNode models = Json.MAPPER.readTree(leaderboard.toJson()).path("evals").get(0).path("models");
        assertThat(models.findValues("tokensInCached")).extracting(JsonNode::asLong).containsExactlyInAnyOrder(160L,
                0L);
        assertThat(leaderboard.toConsoleTable()).contains("120 (40% cached)").doesNotContain("(0% cached)");
        assertThat(leaderboard.toHtml()).contains("120 (40% cached)");
    }

    @Test
    void consoleTableAlignsColumns() {
        String table = leaderboard().toConsoleTable();
        List<String> lines = table.lines().toList();
        assertThat(lines.get(0)).startsWith("support (2 models, repeats reduced by mean, weights accuracy=1.00)");
        String header = lines.get(1);
        int accuracyColumn = header.indexOf("accuracy");
        assertThat(lines.get(2).substring(accuracyColumn)).startsWith("0.800");
        assertThat(lines.get(3).substring(accuracyColumn)).startsWith("0.600");
        assertThat(header).contains("citation_rate").contains("vs best");
        assertThat(lines.get(2)).endsWith("best");
        assertThat(table).contains("! sample too small to separate sim_small");
    }

    @Test
    void anEvalOfConfigurationsNamesItsRowsSoInEveryOutput() throws Exception {
        LeaderboardAccumulator accumulator = new LeaderboardAccumulator(LeaderboardSettings.defaults());
        for (int i = 0; i < 4; i++) {
            accumulator.accept(Results.of("retriever", "bm25-k5", "c" + i).build());
            accumulator.accept(Results.of("retriever", "hybrid-k5", "c" + i).build());
            accumulator.accept(Results.of("answers", "sim_small", "c" + i).build());
        }
        accumulator.compares("retriever", Compared.CONFIGURATIONS_WITHOUT_MODEL);
        Leaderboard leaderboard = accumulator.build();

        List<String> lines = leaderboard.toConsoleTable().lines().toList();
        assertThat(lines).filteredOn(line -> line.startsWith("retriever (")).singleElement().asString()
                .startsWith("retriever (2 configurations, no model, repeats reduced by mean");
        assertThat(lines).filteredOn(line -> line.startsWith("answers (")).singleElement().asString()
                .startsWith("answers (1 model, repeats");
        assertThat(lines).anyMatch(line -> line.matches("#\\s+configuration\\s+composite.*"))
                .anyMatch(line -> line.matches("#\\s+model\\s+composite.*"));
        assertThat(leaderboard.toHtml()).contains("<p>2 configurations, no model. Composite weights: ")
                .contains("<th class=\"l\">configuration</th><th>composite</th>");
        JsonNode evals = Json.MAPPER.readTree(leaderboard.toJson()).path("evals");
        assertThat(evals.findValuesAsText("compares")).containsExactly("configurations without a model");
        accumulator.close();
    }

    @Test
    void erroredResultsStandBesideAccuracyInEveryOutput() throws Exception {
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            records.add(Results.of("e", "m", "c" + i).build());
            records.add(Results.of("e", "m", "c" + i).scorer("tone").score(null)
                    .status(dev.agentarena.junit.engine.results.ResultStatus.ERROR).build());
        }
        Leaderboard leaderboard = Leaderboard.compute(records, LeaderboardSettings.defaults());

        List<String> lines = leaderboard.toConsoleTable().lines().toList();
        String header = lines.get(1);
        assertThat(header).containsPattern("accuracy +95% CI +errors +pass rate");
        int errors = header.indexOf("errors");
        assertThat(lines.get(2).substring(errors)).startsWith("4 ");
        // one line per scorer under a model graded by several
        int modelColumn = header.indexOf("model");
        assertThat(lines.get(3).substring(modelColumn)).startsWith("  exact_match");
        assertThat(lines.get(3).substring(errors)).startsWith("0 ");
        assertThat(lines.get(4).substring(modelColumn)).startsWith("  tone");
        assertThat(lines.get(4).substring(header.indexOf("accuracy"))).startsWith("-");
        assertThat(lines.get(4).substring(errors)).startsWith("4 ");

        JsonNode model = Json.MAPPER.readTree(leaderboard.toJson()).path("evals").get(0).path("models").get(0);
        assertThat(model.path("errors").asInt()).isEqualTo(4);
        assertThat(model.path("callErrors").asInt()).isZero();
        assertThat(model.path("scorerErrors").asInt()).isEqualTo(4);
        assertThat(model.path("scorers").get(1).path("scorer").asText()).isEqualTo("tone");
        assertThat(model.path("scorers").get(1).path("scorerErrors").asInt()).isEqualTo(4);

        assertThat(leaderboard.toHtml()).contains("<td>4 (0 from failed calls, 4 from scorers)</td>");
    }

    @Test
    void writesBothFiles(@TempDir Path dir) throws Exception {
        leaderboard().writeTo(dir.resolve("arena"));
        assertThat(Files.readString(dir.resolve("arena").resolve(Leaderboard.JSON_FILE))).startsWith("{");
        assertThat(Files.readString(dir.resolve("arena").resolve(Leaderboard.HTML_FILE))).contains("<svg");
    }
}
