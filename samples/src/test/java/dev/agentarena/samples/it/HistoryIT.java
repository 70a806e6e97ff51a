package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.reporting.history.HistoryDrift;

/**
 * The run history as a team's CI keeps it: the triage sample run three times with the real JUnit console launcher,
 * each as a GitHub Actions build of its own (the variables a runner sets), appending to one
 * {@code arena.history.file}. Each build is an entry naming its commit, branch and run id, with the sample's evals and
 * models; the third run's {@code report.html} carries the trend view's data over the three builds; and
 * {@code HistoryDrift} prints the history and finds no drift in a deterministic sample.
 */
class HistoryIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRENDS = "<script type=\"application/json\" id=\"arena-trends-data\">";

    @Test
    void threeBuildsKeepThreeEntriesTheirTrendsAndNoDrift() throws Exception {
        Path root = Paths.get("target/history-runs").toAbsolutePath();
        ScratchMaven.delete(root);
        Path history = root.resolve("ci-cache/history.jsonl");
        Path output = root.resolve("arena");
        for (int build = 1; build <= 3; build++) {
            ConsoleRun.with("console-junit5.jar").select("--select-class",
                    "dev.agentarena.samples.triage.SupportTriageEvalTest")
                    .config("arena.output.dir", output.toString()).config("arena.history.file", history.toString())
                    .environment("GITHUB_ACTIONS", "true").environment("GITHUB_SHA", "c0ffee" + build + "0000000")
                    .environment("GITHUB_REF_NAME", "main").environment("GITHUB_RUN_ID", "100" + build)
                    .run(root.resolve("console-" + build + ".log"));
        }

        List<String> lines = Files.readAllLines(history);
        assertThat(lines).hasSize(3);
        for (int build = 1; build <= 3; build++) {
            JsonNode entry = JSON.readTree(lines.get(build - 1));
            assertThat(entry.get("version").asInt()).isEqualTo(1);
            assertThat(entry.at("/build/commit").asText()).isEqualTo("c0ffee" + build + "0000000");
            assertThat(entry.at("/build/branch").asText()).isEqualTo("main");
            assertThat(entry.at("/build/id").asText()).isEqualTo("100" + build);
            assertThat(entry.at("/build/source").asText()).isEqualTo("github-actions");
            assertThat(entry.get("evals")).extracting(row -> row.get("eval").asText() + "/" + row.get("model").asText())
                    .contains("support-triage/sim_small", "support-triage/sim_large");
            boolean first = build == 1;
            assertThat(entry.get("evals")).allSatisfy(row -> {
                assertThat(row.at("/accuracy/value").isNumber()).isTrue();
                assertThat(row.get("cases").asInt()).isPositive();
                assertThat(row.has("changes")).as("the first build has nothing to compare with").isEqualTo(!first);
            });
        }
        // the same sample, the same verdicts: nothing flipped
        assertThat(JSON.readTree(lines.get(2)).get("evals")).allSatisfy(row -> {
            assertThat(row.at("/changes/fixed").asInt()).isZero();
            assertThat(row.at("/changes/broke").asInt()).isZero();
        });

        String page = Files.readString(output.resolve("report.html"));
        int at = page.indexOf(TRENDS);
        assertThat(at).as("the trend view's data in report.html").isPositive();
        JsonNode trends = JSON.readTree(page.substring(at + TRENDS.length(), page.indexOf("</script>", at)));
        assertThat(trends.get("builds")).extracting(build -> build.get("label").asText())
                .containsExactly("#1001 c0ffee1", "#1002 c0ffee2", "#1003 c0ffee3");
        assertThat(trends.get("series")).anySatisfy(series -> {
            assertThat(series.get("eval").asText()).isEqualTo("support-triage");
            assertThat(series.get("points")).hasSize(3)
                    .noneSatisfy(point -> assertThat(point.get("significant").asBoolean()).isTrue());
        });
        assertThat(page).contains("id=\"arena-trends\"");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = HistoryDrift.run(new String[] {"--last", "3", history.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(status).as(printed).isEqualTo(HistoryDrift.STEADY);
        assertThat(printed).contains("support-triage · sim_small, last 3 builds:", "#1003 c0ffee3", "no drift");
    }
}
