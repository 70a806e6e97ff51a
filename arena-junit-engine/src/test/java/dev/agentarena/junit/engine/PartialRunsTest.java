package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.evalClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.Filter;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;
import dev.agentarena.junit.engine.fixtures.RerunFixture;
import dev.agentarena.junit.engine.fixtures.TaggedFixture;
import dev.agentarena.junit.engine.fixtures.TriageFixture;

/**
 * A run of part of an eval (one case by unique id, a tag filter) leaves the last full run's {@code results.jsonl} and
 * leaderboard alone and writes its own under {@code partial/}; a rerun inside the launcher session that wrote the full
 * run (Surefire's {@code rerunFailingTestsCount}) still merges into it.
 */
class PartialRunsTest {

    private static final ArenaUniqueIdBuilder TRIAGE = evalClass(TriageFixture.class);
    private static final ArenaUniqueIdBuilder RERUN = evalClass(RerunFixture.class).model("sim_small");

    @TempDir
    Path output;

    @Test
    void aCaseRerunByUniqueIdWritesAsideAndLeavesTheFullRunAlone() throws IOException {
        execute(selectClass(TriageFixture.class));
        String fullResults = read("results.jsonl");
        String fullLeaderboard = read("leaderboard.json");
        assertThat(fullResults.lines()).hasSize(80);

        EngineExecutionResults partial = execute(TRIAGE.model("sim_small").evalCase("t03").select());

        assertThat(read("results.jsonl")).isEqualTo(fullResults);
        assertThat(read("leaderboard.json")).isEqualTo(fullLeaderboard);
        assertThat(read("partial/results.jsonl").lines()).singleElement().asString()
                .contains("\"case_id\":\"t03\"", "\"model\":\"sim_small\"");
        assertThat(read("partial/leaderboard.json")).contains("\"cases\" : 1");
        List<String> warnings = partial.allEvents().reportingEntryPublished().stream()
                .map(e -> e.getRequiredPayload(ReportEntry.class).getKeyValuePairs().get("warning"))
                .filter(w -> w != null).toList();
        assertThat(warnings).singleElement().asString().contains("only part of triage-fixture was selected",
                "This partial run writes " + output.resolve("partial").resolve("results.jsonl"),
                "the leaderboard of the last full run are left as they were");

        // the next partial run replaces the previous one
        execute(TRIAGE.model("sim_large").evalCase("t05").select());
        assertThat(read("partial/results.jsonl").lines()).singleElement().asString().contains("\"case_id\":\"t05\"");
        assertThat(read("results.jsonl")).isEqualTo(fullResults);
    }

    @Test
    void aTagFilteredRunWritesAside() throws IOException {
        try (LauncherSession session = LauncherFactory.openSession()) {
            session.getLauncher().execute(request(TagFilter.includeTags("billing"), selectClass(TaggedFixture.class)));
        }
        assertThat(output.resolve("results.jsonl")).doesNotExist();
        assertThat(read("partial/results.jsonl").lines()).isNotEmpty()
                .allSatisfy(line -> assertThat(line).contains("billing"));
    }

    @Test
    void aRerunInTheSessionOfTheFullRunMergesIntoIt() throws IOException {
        try (LauncherSession session = LauncherFactory.openSession()) {
            session.getLauncher().execute(request(null, selectClass(TriageFixture.class)));
            session.getLauncher().execute(request(null, TRIAGE.model("sim_small").evalCase("t03").select()));
        }
        // appended to the run's file, replacing the earlier result in the run's leaderboard
        assertThat(read("results.jsonl").lines()).hasSize(81);
        assertThat(read("leaderboard.json")).contains("\"cases\" : 40");
        assertThat(output.resolve("partial")).doesNotExist();
    }

    /**
     * Surefire tells tests apart by class and display name, and takes a failed test whose rerun passes for a flake only
     * when both executions have the same name: under Surefire's names ({@code stable}) they do, and the rerun's pass
     * replaces the failure in the run's leaderboard, so Surefire and the leaderboard agree. Names that carry the score
     * ({@code full}) differ, which made Surefire count the passing rerun as one more test.
     */
    @Test
    void aFailedTestRerunInTheSessionKeepsItsNameAndItsPassReplacesTheFailure() throws IOException {
        Map<String, String> names = new HashMap<>();
        Map<String, List<String>> executions = rerunFlakyCase(names, "stable");

        String flaky = RERUN.evalCase("flaky").scorer("exact_match").build().toString();
        assertThat(executions.get(flaky)).containsExactly("sim_small/cases[flaky]/exact_match FAILED",
                "sim_small/cases[flaky]/exact_match SUCCESSFUL");
        assertThat(executions.get(RERUN.evalCase("steady").scorer("exact_match").build().toString()))
                .containsExactly("sim_small/cases[steady]/exact_match SUCCESSFUL");
        assertThat(read("results.jsonl").lines()).hasSize(3);
        JsonNode model = new ObjectMapper().readTree(output.resolve("leaderboard.json").toFile()).path("evals").get(0)
                .path("models").get(0);
        assertThat(model.path("cases").asInt()).isEqualTo(2);
        assertThat(model.path("accuracy").path("value").asDouble()).as("the rerun's pass replaced the failure")
                .isEqualTo(1.0);

        Files.delete(output.resolve("results.jsonl"));
        Map<String, List<String>> scored = rerunFlakyCase(names, "full");
        assertThat(scored.get(flaky)).extracting(execution -> execution.replaceAll(" (FAILED|SUCCESSFUL)$", ""))
                .as("names with the score differ between the executions").doesNotHaveDuplicates();
    }

    /** The full run, then the failed tests again by unique id in the same session, as Surefire reruns them. */
    private Map<String, List<String>> rerunFlakyCase(Map<String, String> names, String displayNames) {
        RerunFixture.FLAKY_RUNS.set(0);
        Map<String, List<String>> executions = new LinkedHashMap<>();
        List<DiscoverySelector> failed = new ArrayList<>();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                if (test.isTest()) {
                    executions.computeIfAbsent(test.getUniqueId(), id -> new ArrayList<>())
                            .add(test.getDisplayName() + " " + result.getStatus());
                    if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                        failed.add(DiscoverySelectors.selectUniqueId(test.getUniqueIdObject()));
                    }
                }
            }
        };
        Map<String, String> settings = new HashMap<>(settings());
        settings.put(Constants.DISPLAY_NAMES, displayNames);
        try (LauncherSession session = LauncherFactory.openSession()) {
            session.getLauncher().execute(LauncherDiscoveryRequestBuilder.request()
                    .selectors(selectClass(RerunFixture.class)).configurationParameters(settings).build(), listener);
            List<DiscoverySelector> rerun = List.copyOf(failed);
            assertThat(rerun).as("the flaky case failed first").hasSize(1);
            session.getLauncher().execute(LauncherDiscoveryRequestBuilder.request().selectors(rerun)
                    .configurationParameters(settings).build(), listener);
        }
        return executions;
    }

    private EngineExecutionResults execute(DiscoverySelector selector) {
        return EngineTestKit.engine(Constants.ENGINE_ID).configurationParameters(settings()).selectors(selector)
                .execute();
    }

    private LauncherDiscoveryRequest request(Filter<?> filter, DiscoverySelector selector) {
        LauncherDiscoveryRequestBuilder builder = LauncherDiscoveryRequestBuilder.request().selectors(selector)
                .configurationParameters(settings());
        if (filter != null) {
            builder.filters(filter);
        }
        return builder.build();
    }

    private Map<String, String> settings() {
        return Map.of(Constants.OUTPUT_DIR, output.toString(), Constants.SIM_LATENCY_MS, "0");
    }

    private String read(String file) throws IOException {
        return Files.readString(output.resolve(file), StandardCharsets.UTF_8);
    }
}
