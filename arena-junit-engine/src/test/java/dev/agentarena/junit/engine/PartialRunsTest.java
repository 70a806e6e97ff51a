package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.evalClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.Filter;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;
import dev.agentarena.junit.engine.fixtures.TaggedFixture;
import dev.agentarena.junit.engine.fixtures.TriageFixture;

/**
 * A run of part of an eval (one case by unique id, a tag filter) leaves the last full run's {@code results.jsonl} and
 * leaderboard alone and writes its own under {@code partial/}; a rerun inside the launcher session that wrote the full
 * run (Surefire's {@code rerunFailingTestsCount}) still merges into it.
 */
class PartialRunsTest {

    private static final ArenaUniqueIdBuilder TRIAGE = evalClass(TriageFixture.class);

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
