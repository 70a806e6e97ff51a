package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.fixtures.HostileOutputsFixture;
import dev.agentarena.junit.engine.fixtures.NodeModesFixture;
import dev.agentarena.junit.engine.fixtures.TwoDatasetFixture;

/** Every run writes report.html beside its results: every case, in every node mode, compared when asked. */
class ReportEngineTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern BLOCK = Pattern.compile(
            "<script type=\"application/json\"(?: class=\"arena-chunk\"| id=\"([a-z-]+)\")>(.*?)</script>",
            Pattern.DOTALL);

    @TempDir
    Path output;

    @Test
    void aRunWritesTheReportWithEveryResultOfEveryCase() throws IOException {
        EngineRun run = new EngineRun(output).execute(TwoDatasetFixture.class);

        Page page = page(output.resolve("report.html"));
        assertThat(page.records).hasSize(run.lines().size()).hasSize(6);
        assertThat(page.records.stream().map(r -> r.get(3).asText()).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("hello", "bye", "two");
        JsonNode eval = page.meta.path("evals").elements().next();
        assertThat(eval.path("class").asText()).isEqualTo(TwoDatasetFixture.class.getName());
        assertThat(eval.path("datasets").asBoolean()).as("two datasets: ids have a dataset segment").isTrue();
        assertThat(run.lines()).allSatisfy(line -> {
            assertThat(line.path("input").asText()).isNotEmpty();
            assertThat(line.path("reference").asText()).isNotEmpty();
        });
        assertThat(page.meta.has("compare")).as("no baseline, nothing to compare").isFalse();
    }

    @Test
    void thePagesAreReadableAsTheResultsFileIsNotOwnerOnlyTemporaryFiles() throws IOException {
        Assumptions.assumeTrue(output.getFileSystem().supportedFileAttributeViews().contains("posix"), "POSIX");
        new EngineRun(output).execute(TwoDatasetFixture.class);

        // a report written as root in a container must stay readable by the user who opens it
        Set<PosixFilePermission> results = Files.getPosixFilePermissions(output.resolve("results.jsonl"));
        for (String page : List.of("report.html", "leaderboard.html", "leaderboard.json")) {
            assertThat(Files.getPosixFilePermissions(output.resolve(page))).as(page).isEqualTo(results);
        }
        assertThat(output.toFile().list()).as("no temporary file left").noneMatch(name -> name.endsWith(".tmp"));
    }

    @Test
    void inSummaryNodeModeTheReportStillHasEveryCase() throws IOException {
        EngineRun run = new EngineRun(output).with(Constants.NODES, "summary").execute(NodeModesFixture.class);

        assertThat(page(output.resolve("report.html")).records).hasSize(run.lines().size()).hasSize(20);
    }

    @Test
    void comparesWithAnEarlierResultsFileAndCanBeTurnedOff() throws IOException {
        new EngineRun(output).execute(TwoDatasetFixture.class);
        Path previous = Files.copy(output.resolve("results.jsonl"), output.getParent().resolve(
                output.getFileName() + "-previous.jsonl"));

        new EngineRun(output).with(Constants.REPORT_COMPARE_TO, previous.toString()).execute(TwoDatasetFixture.class);

        JsonNode compare = page(output.resolve("report.html")).meta.path("compare");
        assertThat(compare.path("cells").path("unchanged").asInt()).isEqualTo(6);
        assertThat(compare.path("cells").path("regressed").asInt()).isZero();
        assertThat(compare.path("previous").asText()).contains(previous.toString());

        new EngineRun(output).with(Constants.REPORT_ENABLED, "false").execute(TwoDatasetFixture.class);

        assertThat(output.resolve("report.html")).as("a new run removes the last report; none is written")
                .doesNotExist();
        Files.delete(previous);
    }

    @Test
    void aPreviousRunThatIsNotAResultsFileStillLeavesTheRunsOwnReportWithoutAComparison() throws IOException {
        Path previous = output.getParent().resolve(output.getFileName() + "-broken.jsonl");
        Files.writeString(previous, "{\"eval\":\"x\",\"model\":\"m\",\"case_id\":\"a\"\nnot json\n");

        new EngineRun(output).with(Constants.REPORT_COMPARE_TO, previous.toString()).execute(TwoDatasetFixture.class);

        Page page = page(output.resolve("report.html"));
        assertThat(page.records).hasSize(6);
        assertThat(page.meta.has("compare")).isFalse();
        Files.delete(previous);
    }

    @Test
    void hostileOutputsAndCaseIdsStayInsideTheDataBlocks() throws IOException {
        new EngineRun(output).execute(HostileOutputsFixture.class);

        Page page = page(output.resolve("report.html"));
        assertThat(page.records).isNotEmpty();
        assertThat(page.outside).doesNotContain("forged", "evil", "\u001B", "\uFFFE", "\u202E");
        assertThat(page.records.stream().map(r -> r.get(3).asText()))
                .contains("forged\r\n" + HostileOutputsFixture.FORGED);
    }

    private record Page(List<JsonNode> records, JsonNode meta, String outside) {
    }

    private static Page page(Path file) throws IOException {
        String html = Files.readString(file);
        List<JsonNode> records = new ArrayList<>();
        JsonNode meta = null;
        StringBuilder outside = new StringBuilder();
        Matcher matcher = BLOCK.matcher(html);
        int last = 0;
        while (matcher.find()) {
            outside.append(html, last, matcher.start());
            last = matcher.end();
            JsonNode value = JSON.readTree(matcher.group(2));
            if (matcher.group(1) == null) {
                value.forEach(records::add);
            }
            else if (matcher.group(1).equals("arena-meta")) {
                meta = value;
            }
        }
        outside.append(html.substring(last));
        return new Page(records, meta, outside.toString());
    }
}
