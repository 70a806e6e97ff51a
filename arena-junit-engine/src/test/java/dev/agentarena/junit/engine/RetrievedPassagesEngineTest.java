package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.fixtures.RetrievedPassagesFixture;
import dev.agentarena.junit.engine.fixtures.browser.HostileLeaderboardFixture;
import dev.agentarena.junit.engine.reporting.report.CaseReport;
import dev.agentarena.junit.engine.reporting.merge.MergeShards;

/**
 * The passages a task hands back with its output ({@code TaskOutput.withRetrieved}) reach its scorers and are written
 * with its results: in rank order, cut at the text limit (and at 100 passages) with the whole passages beside them,
 * masked, kept by a merge of shards, attached in Allure, in the report escaped; a case that retrieved nothing writes
 * the line it always wrote.
 */
class RetrievedPassagesEngineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path output;

    @Test
    void scorersReadThePassagesInRankOrder() {
        EngineRun run = new EngineRun(output).execute(RetrievedPassagesFixture.class);

        run.assertNode("found", "hit", "passed", "retrieved [1:doc-9, 2:doc-7]");
        run.assertNode("none", "hit", "failed", "retrieved []");
        run.assertNode("many", "hit", "passed", "retrieved [1:doc-0, 2:doc-1, 3:doc-2, 4:doc-3, 5:doc-4]");
    }

    @Test
    void resultsLinesHoldThePassagesOnlyWhenThereAreSome() {
        EngineRun run = new EngineRun(output).execute(RetrievedPassagesFixture.class);

        JsonNode retrieved = run.line("found", "hit").get("retrieved");
        assertThat(retrieved.toString()).isEqualTo("[{\"id\":\"doc-9\",\"rank\":1,\"score\":0.91,"
                + "\"text\":\"Lyon is in France.\",\"source\":{\"file\":\"cities.md\",\"line\":12}},"
                + "{\"id\":\"doc-7\",\"rank\":2,\"score\":null,\"text\":\"Paris is the capital of France.\","
                + "\"source\":{}}]");
        assertThat(run.line("found", "hit").has("retrieved_file")).isFalse();
        assertThat(run.line("none", "hit").has("retrieved")).isFalse();
    }

    @Test
    void aResultShowsTheFirstHundredPassagesAndKeepsAllOfThemBeside() throws IOException {
        EngineRun run = new EngineRun(output).execute(RetrievedPassagesFixture.class);

        JsonNode line = run.line("many", "hit");
        assertThat(line.get("retrieved")).hasSize(100);
        assertThat(line.get("retrieved").get(99).get("id").asText()).isEqualTo("doc-99");
        String file = line.get("retrieved_file").asText();
        assertThat(file).isEqualTo("texts/retrieved-passages/recorded/cases/many/retrieved.json");
        JsonNode whole = JSON.readTree(output.resolve(file).toFile());
        assertThat(whole).hasSize(150);
        assertThat(whole.get(149).get("rank").asInt()).isEqualTo(150);
    }

    @Test
    void aLongPassageIsCutWithTheWholePassagesBeside() throws IOException {
        EngineRun run = new EngineRun(output).execute(RetrievedPassagesFixture.class);

        String text = run.line("long", "hit").get("retrieved").get(0).get("text").asText();
        String file = "texts/retrieved-passages/recorded/cases/long/retrieved.json";
        assertThat(run.line("long", "hit").get("retrieved_file").asText()).isEqualTo(file);
        assertThat(text).startsWith("yyyy").doesNotContain("END-MARKER")
                .endsWith("… [cut at 4,000 of 20,000 characters; the whole text is in " + file + "]");
        JsonNode whole = JSON.readTree(output.resolve(file).toFile());
        assertThat(whole.get(0).get("text").asText()).isEqualTo(RetrievedPassagesFixture.LONG);
        assertThat(whole.get(0).get("id").asText()).isEqualTo("doc-long");
    }

    @Test
    void aCutPassageWithAnUnpairedSurrogateIsKeptWholeNotAnError() throws IOException {
        EngineRun run = new EngineRun(output).execute(RetrievedPassagesFixture.class);

        run.assertNode("unpaired", "hit", "passed", "retrieved [1:doc-u]");
        JsonNode whole = JSON.readTree(output.resolve(run.line("unpaired", "hit").get("retrieved_file").asText())
                .toFile());
        assertThat(whole.get(0).get("text").asText()).isEqualTo(RetrievedPassagesFixture.LONG + "\uFFFD");
    }

    @Test
    void aSecretInAPassageIsMaskedInTheResultsAndAllure() throws IOException {
        String secret = System.getenv("ARENA_CANARY_SECRET");
        Assumptions.assumeTrue(secret != null, "run through Maven: the engine's pom sets ARENA_CANARY_SECRET");
        InMemoryAllure allure = new InMemoryAllure();

        EngineRun run = allure.around(() -> new EngineRun(output).execute(RetrievedPassagesFixture.class));

        JsonNode passage = run.line("secret", "hit").get("retrieved").get(0);
        assertThat(passage.get("text").asText()).isEqualTo("the key is [REDACTED]");
        assertThat(passage.get("source").get("owner").asText()).isEqualTo("[REDACTED]");
        assertThat(Files.readString(output.resolve("results.jsonl"))).doesNotContain(secret);
        assertThat(allure.attachments()).noneMatch(text -> text.contains(secret))
                .anyMatch(text -> text.startsWith("1. doc-s\nthe key is [REDACTED]"));
    }

    @Test
    void allureAttachesThePassagesOfACase() {
        InMemoryAllure allure = new InMemoryAllure();

        allure.around(() -> new EngineRun(output).execute(RetrievedPassagesFixture.class));

        assertThat(allure.attachments()).contains("1. doc-9 (score 0.91)\nLyon is in France.\nsource: {\n"
                + "  \"file\" : \"cities.md\",\n  \"line\" : 12\n}\n\n2. doc-7\nParis is the capital of France.");
    }

    @Test
    void theReportHoldsThePassagesEscapedAndReadsThemBackFromTheResultsAsGathered() throws IOException {
        new EngineRun(output).execute(RetrievedPassagesFixture.class);

        String page = Files.readString(output.resolve("report.html"));
        assertThat(page).contains("Lyon is in France.", "\"doc-h\"").doesNotContain(HostileLeaderboardFixture.SCRIPT)
                .doesNotContain(HostileLeaderboardFixture.IMG);
        Path readBack = CaseReport.write(output.resolve("results.jsonl"), Optional.empty(), Map.of(
                "retrieved-passages", new CaseReport.EvalClass(RetrievedPassagesFixture.class.getName(), false)), 0.02,
                Optional.of(output.resolve("read-back.html"))).file().orElseThrow();
        assertThat(timeless(Files.readString(readBack))).isEqualTo(timeless(page));
    }

    private static String timeless(String page) {
        return page.replaceAll("\"generated\":\"[^\"]*\"", "\"generated\":\"T\"");
    }

    @Test
    void aMergeOfShardsKeepsThePassagesAndTheirWholeTexts() throws IOException {
        Path shards = output.resolve("shards");
        for (int i = 1; i <= 2; i++) {
            new EngineRun(shards).with(Constants.SHARD, i + "/2").execute(RetrievedPassagesFixture.class);
        }
        Path merged = output.resolve("merged");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = MergeShards.run(new String[] {"--output", merged.toString(), shards.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(status).as(out.toString(StandardCharsets.UTF_8)).isEqualTo(MergeShards.MERGED);
        List<String> withPassages = new ArrayList<>();
        for (String line : Files.readAllLines(merged.resolve("results.jsonl"))) {
            JsonNode read = JSON.readTree(line);
            if (read.has("retrieved")) {
                withPassages.add(read.get("case_id").asText() + "=" + read.get("retrieved").size());
            }
        }
        assertThat(withPassages).containsExactlyInAnyOrder("found=2", "long=1", "unpaired=1", "secret=1", "hostile=1",
                "many=100");
        assertThat(merged.resolve("texts/retrieved-passages/recorded/cases/long/retrieved.json")).isRegularFile();
    }
}
