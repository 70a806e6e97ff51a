package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.testkit.engine.EngineTestKit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.fixtures.HostileOutputsFixture;
import dev.agentarena.junit.engine.fixtures.LongTextFixture;
import dev.agentarena.junit.engine.fixtures.RepeatFixture;
import dev.agentarena.junit.engine.fixtures.ReportEquivalenceFixture;
import dev.agentarena.junit.engine.fixtures.StatusFixture;
import dev.agentarena.junit.engine.fixtures.TwoDatasetFixture;
import dev.agentarena.junit.engine.fixtures.agents.HandWrittenAgentFixture;
import dev.agentarena.junit.engine.reporting.report.CaseReport;
import dev.agentarena.junit.engine.reporting.report.InRunReport;

/**
 * A run without a comparison writes {@code report.html} from the data it gathered as its results were written
 * ({@link InRunReport}); the page must be byte for byte the one {@link CaseReport#write} reads back from the run's
 * {@code results.jsonl} (which a comparison, {@code CompareRuns} and a shard merge still use), its time aside.
 */
class InRunReportEngineTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern META = Pattern.compile("<script type=\"application/json\" id=\"arena-meta\">(.*?)"
            + "</script>", Pattern.DOTALL);

    /** Every eval with something the page's records hold: see {@link ReportEquivalenceFixture}. */
    private static final List<Class<?>> EVALS = List.of(ReportEquivalenceFixture.class, RepeatFixture.class,
            HostileOutputsFixture.class, TwoDatasetFixture.class, HandWrittenAgentFixture.class, StatusFixture.class,
            LongTextFixture.class);

    @TempDir
    Path output;

    // held: a logger without a strong reference loses its level
    private final Logger logger = Logger.getLogger(InRunReport.class.getName());
    private final List<String> said = Collections.synchronizedList(new ArrayList<>());
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            said.add(record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level level;

    @BeforeEach
    void listen() {
        level = logger.getLevel();
        logger.setLevel(Level.ALL);
        logger.addHandler(handler);
    }

    @AfterEach
    void stopListening() {
        logger.removeHandler(handler);
        logger.setLevel(level);
    }

    @Test
    void thePageGatheredDuringTheRunIsThePageReadBackFromTheResults() throws IOException {
        run(Map.of(Constants.OUTPUT_TEXT_LIMIT, "100"));

        assertGatheredAndSameAsReadBack(90);
    }

    @Test
    void inSummaryModeResultsWithoutTestsGoToThePageInTheFilesOrder() throws IOException {
        run(Map.of(Constants.NODES, "summary", Constants.OUTPUT_TEXT_LIMIT, "0"));

        assertGatheredAndSameAsReadBack(90);
    }

    @Test
    void inSummaryModeAnOutputDirectoryThatDoesNotExistYetStillGetsThePageGatheredDuringTheRun() throws IOException {
        // the results file writes lines without a test in batches, so the first result comes before the directory
        output = output.resolve("not-yet").resolve("made");

        run(Map.of(Constants.NODES, "summary"));

        assertGatheredAndSameAsReadBack(90);
    }

    @Test
    void aRunComparedWithAPreviousOneReadsItsResultsBack() throws IOException {
        run(Map.of());
        Path previous = Files.copy(output.resolve("results.jsonl"), output.getParent().resolve(
                output.getFileName() + "-previous.jsonl"));
        said.clear();

        run(Map.of(Constants.REPORT_COMPARE_TO, previous.toString()));

        assertThat(said).as("a comparison needs the run's aggregates before the first record")
                .noneMatch(line -> line.contains(output.toString()));
        assertThat(Files.readString(output.resolve("report.html"))).contains("\"compare\":");
        assertThat(output.toFile().list()).noneMatch(name -> name.endsWith(".tmp"));
        Files.delete(previous);
    }

    private void run(Map<String, String> settings) {
        Map<String, String> parameters = new LinkedHashMap<>(settings);
        parameters.put(Constants.OUTPUT_DIR, output.toString());
        parameters.put(Constants.SIM_LATENCY_MS, "0");
        parameters.put(Constants.OUTPUT_PROGRESS, "off");
        parameters.put(Constants.LOW_SCORES, "report");
        EngineTestKit.engine(Constants.ENGINE_ID).configurationParameters(parameters)
                .selectors(EVALS.stream().map(type -> (DiscoverySelector) selectClass(type)).toArray(DiscoverySelector[]::new))
                .execute();
    }

    private void assertGatheredAndSameAsReadBack(int atLeast) throws IOException {
        Path page = output.resolve("report.html");
        assertThat(said).as("the page was assembled from the data gathered during the run")
                .anyMatch(line -> line.contains(output.toString()) && line.contains("assembled"))
                .noneMatch(line -> line.contains("will be written from the results file"));
        assertThat(output.toFile().list()).as("the page's temporary file is gone")
                .noneMatch(name -> name.endsWith(".tmp"));
        String gathered = Files.readString(page);
        JsonNode meta = meta(gathered);
        assertThat(meta.path("count").asLong()).isGreaterThanOrEqualTo(atLeast)
                .isEqualTo(Files.readAllLines(output.resolve("results.jsonl")).size());
        Map<String, CaseReport.EvalClass> evals = new LinkedHashMap<>();
        meta.path("evals").properties().forEach(eval -> evals.put(eval.getKey(), new CaseReport.EvalClass(
                eval.getValue().path("class").asText(), eval.getValue().path("datasets").asBoolean())));
        assertThat(evals).hasSize(EVALS.size());

        Path readBack = CaseReport.write(output.resolve("results.jsonl"), Optional.empty(), evals, 0.02,
                Optional.of(output.resolve("read-back.html"))).file().orElseThrow();

        assertThat(timeless(gathered)).isEqualTo(timeless(Files.readString(readBack)));
    }

    private static JsonNode meta(String page) throws IOException {
        Matcher matcher = META.matcher(page);
        assertThat(matcher.find()).isTrue();
        return JSON.readTree(matcher.group(1));
    }

    private static String timeless(String page) {
        return page.replaceAll("\"generated\":\"[^\"]*\"", "\"generated\":\"T\"");
    }
}
