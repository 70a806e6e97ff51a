package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.EngineRun.cannotRun;
import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.anyEvalClass;
import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.evalClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.container;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.testkit.engine.EngineTestKit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.fixtures.sweep.RetrieverSweepFixture;
import dev.agentarena.junit.engine.fixtures.sweep.SweepFixtures;

/**
 * An eval that compares {@code @EvalConfiguration}s (a retriever's, here) compares them as other evals compare models:
 * a container per configuration, its name as the results' model, a leaderboard row with its interval and a paired
 * test against the best, gates on it; a configuration without a model calls none and costs nothing.
 */
class ConfigurationSweepEngineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path output;

    private EngineRun sweep() {
        return new EngineRun(output).execute(RetrieverSweepFixture.class);
    }

    @Test
    void eachConfigurationIsAContainerNamedByIt() {
        EngineRun run = sweep();

        for (String configuration : List.of("keyword-k1", "keyword-k3", "fixed-k3")) {
            run.results().containerEvents().assertThatEvents().haveExactly(1,
                    event(container(), displayName(configuration), finishedSuccessfully()));
        }
        run.results().testEvents().assertThatEvents().haveExactly(1, event(
                anyEvalClass().model("keyword-k1").evalCase("q0").scorer("recall").node(),
                finishedWithFailure(message("recall scored 0.00 for case 'q0' on keyword-k1; output \"\""))));
    }

    @Test
    void theTaskRunsUnderItsConfigurationAndResultsNameIt() {
        List<JsonNode> lines = sweep().lines();

        Map<String, Long> found = lines.stream().filter(line -> line.get("status").asText().equals("passed"))
                .collect(Collectors.groupingBy(line -> line.get("model").asText(), Collectors.counting()));
        // top-1 misses every third question, top-3 finds all, the fixed index only its first three
        assertThat(found).containsOnly(Map.entry("keyword-k1", 20L), Map.entry("keyword-k3", 30L),
                Map.entry("fixed-k3", 3L));
        assertThat(lines).hasSize(90);
        JsonNode line = lines.stream().filter(l -> l.get("model").asText().equals("keyword-k3")
                && l.get("case_id").asText().equals("q3")).findFirst().orElseThrow();
        assertThat(line.get("output").asText()).isEmpty();
        assertThat(line.get("retrieved")).hasSize(3);
        assertThat(line.get("retrieved").get(0).get("id").asText()).isEqualTo("doc-4");
        assertThat(line.get("retrieved").get(1).get("id").asText()).isEqualTo("doc-3");
    }

    @Test
    void aTaskReturningPassagesRetrievedThemOrNoneAndANullPassageIsAnError() {
        EngineRun run = new EngineRun(output).execute(SweepFixtures.PassageListsFixture.class);

        run.assertNode("a", "found", "failed", "not retrieved");
        assertThat(run.line("a", "found").has("retrieved")).isFalse();
        run.assertNode("b", "found", "error", "retrieved passage 2 is null");
    }

    @Test
    void builtinTextScorersDoNotApplyToAConfigurationThatGivesNoAnswer() {
        EngineRun run = new EngineRun(output).execute(SweepFixtures.TextScorersFixture.class);

        for (String scorer : List.of("exact_match", "contains")) {
            assertThat(run.lines()).filteredOn(line -> line.get("model").asText().equals("passages")
                    && line.get("scorer").asText().equals(scorer)).hasSize(2).allSatisfy(line -> {
                        assertThat(line.get("status").asText()).isEqualTo("not_applicable");
                        assertThat(line.get("reason").asText()).isEqualTo("not applicable: scorer '" + scorer
                                + "' grades the answer's text, but configuration 'passages' runs on no model, so its "
                                + "task retrieves and gives no answer; grade a retriever with retrieval scorers");
                    });
        }
        // a text the task gives of its own is graded; the passages are graded by a scorer of passages either way
        assertThat(run.lines()).filteredOn(line -> line.get("model").asText().equals("extractive"))
                .extracting(line -> line.get("status").asText()).containsOnly("passed");
        assertThat(run.lines()).filteredOn(line -> line.get("scorer").asText().equals("found"))
                .extracting(line -> line.get("status").asText()).containsOnly("passed").hasSize(4);
    }

    @Test
    void aRetrievalOnlyEvalCallsNoModelAndCostsNothing() {
        EngineRun run = sweep();

        assertThat(run.lines()).allSatisfy(line -> {
            assertThat(line.get("tokens_in").asInt()).isZero();
            assertThat(line.get("cost_usd").asDouble()).isZero();
        });
        // the check that a task called the model under evaluation does not apply: there is none
        assertThat(run.results().allEvents().reportingEntryPublished().stream()
                .map(e -> e.getPayload(org.junit.platform.engine.reporting.ReportEntry.class).orElseThrow()
                        .getKeyValuePairs().toString()))
                .noneMatch(entry -> entry.contains("without calling"));
    }

    @Test
    void theLeaderboardRanksConfigurationsWithIntervalsAndAPairedTestAgainstTheBest() throws IOException {
        sweep();

        JsonNode eval = JSON.readTree(output.resolve("leaderboard.json").toFile()).get("evals").get(0);
        assertThat(eval.get("compares").asText()).isEqualTo("configurations without a model");
        JsonNode rows = eval.get("models");
        assertThat(rows).extracting(row -> row.get("model").asText())
                .containsExactly("keyword-k3", "keyword-k1", "fixed-k3");
        JsonNode best = rows.get(0);
        assertThat(best.get("vsBest").isNull()).isTrue();
        assertThat(best.get("accuracy").get("value").asDouble()).isEqualTo(1.0);
        assertThat(best.get("accuracy").get("ciLow").asDouble()).isBetween(0.8, 1.0);
        assertThat(best.get("costUsd").asDouble()).isZero();
        assertThat(best.get("tokensIn").asInt()).isZero();
        // top-1 against top-3: 10 questions only top-3 answers, none the other way round
        JsonNode topOne = rows.get(1).get("vsBest");
        assertThat(rows.get(1).get("accuracy").get("value").asDouble()).isCloseTo(20.0 / 30, within(1e-12));
        assertThat(topOne.get("test").asText()).isEqualTo("mcnemar");
        assertThat(topOne.get("b").asInt() + topOne.get("c").asInt()).isEqualTo(10);
        assertThat(topOne.get("significant").asBoolean()).isTrue();
        assertThat(rows.get(2).get("vsBest").get("significant").asBoolean()).isTrue();
    }

    @Test
    void aGateNamesTheConfigurationItBounds() {
        EngineRun run = new EngineRun(output).with("arena.gates.min-accuracy.retriever-sweep.keyword-k1", "0.9")
                .with("arena.gates.min-accuracy.retriever-sweep.keyword-k3", "0.9").execute(RetrieverSweepFixture.class);

        run.results().testEvents().assertThatEvents()
                .haveExactly(1, event(anyEvalClass().gate("min-accuracy.retriever-sweep.keyword-k1").node(),
                        finishedWithFailure(message(m -> m.contains("keyword-k1") && m.contains("0.667")))))
                .haveExactly(1, event(anyEvalClass().gate("min-accuracy.retriever-sweep.keyword-k3").node(),
                        finishedSuccessfully()));
    }

    @Test
    void aBaselineKeepsEachConfigurationAndNamesTheOneThatRegressed() throws IOException {
        String file = output.resolve("baseline.json").toString();
        EngineRun written = new EngineRun(output).with(Constants.BASELINE_PATH, file)
                .with(Constants.BASELINE_UPDATE, "true").execute(RetrieverSweepFixture.class);
        written.results().testEvents().assertThatEvents().haveExactly(1,
                event(anyEvalClass().baseline().node(), finishedSuccessfully()));
        assertThat(Files.readString(Path.of(file))).contains("\"keyword-k1\"", "\"keyword-k3\"", "\"fixed-k3\"");

        RetrieverSweepFixture.degraded = Set.of("keyword-k3");
        try {
            EngineRun regressed = new EngineRun(output).with(Constants.BASELINE_PATH, file)
                    .execute(RetrieverSweepFixture.class);
            regressed.results().testEvents().assertThatEvents().haveExactly(1, event(anyEvalClass().baseline().node(),
                    finishedWithFailure(message(m -> m.startsWith(
                            "regressed: retriever-sweep / keyword-k3 / recall accuracy 1.000 → 0.667")
                            && !m.contains("keyword-k1")))));
        }
        finally {
            RetrieverSweepFixture.degraded = Set.of();
        }
    }

    @Test
    void oneConfigurationsCaseRunsAloneByItsUniqueId() {
        EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameters(Map.of(Constants.OUTPUT_DIR, output.toString(), Constants.SIM_LATENCY_MS,
                        "0", Constants.OUTPUT_PROGRESS, "off"))
                .selectors(evalClass(SweepFixtures.OddNamesFixture.class)
                        .model("\u00e9t\u00e9/\u03ba=5 \ud83d\ude80").evalCase("b").select())
                .execute().testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
    }

    @Test
    void configurationsInArenaYamlReplaceTheAnnotatedOnes(@TempDir Path root) throws IOException {
        Files.writeString(root.resolve("arena.yaml"), "evals:\n  retriever-sweep:\n    configurations:\n"
                + "      keyword-k2: {index: keyword, top_k: 2}\n      \"fixed k1\": {index: fixed, top_k: 1}\n");
        EngineRun run = new EngineRun(output).with(Constants.PROJECT_ROOT, root.toString())
                .execute(RetrieverSweepFixture.class);

        Map<String, Long> passed = run.lines().stream().filter(line -> line.get("status").asText().equals("passed"))
                .collect(Collectors.groupingBy(line -> line.get("model").asText(), Collectors.counting()));
        assertThat(passed).containsOnly(Map.entry("keyword-k2", 30L), Map.entry("fixed k1", 1L));
        assertThat(run.lines()).hasSize(60);
    }

    @Test
    void configurationsInPropertiesReplaceTheAnnotatedOnesAndAListIsNoSetting() {
        String prefix = "arena.evals.retriever-sweep.configurations.";
        EngineRun run = new EngineRun(output).with(prefix + "fixed-k2.index", "fixed").with(prefix + "fixed-k2.top_k",
                "2").execute(RetrieverSweepFixture.class);

        assertThat(run.lines()).hasSize(30).allSatisfy(line -> assertThat(line.get("model").asText())
                .isEqualTo("fixed-k2"));
        assertThat(run.lines()).filteredOn(line -> line.get("status").asText().equals("passed")).hasSize(2);
        assertThat(run.results().allEvents().reportingEntryPublished().stream()
                .map(e -> e.getPayload(org.junit.platform.engine.reporting.ReportEntry.class).orElseThrow()
                        .getKeyValuePairs().toString()))
                .noneMatch(entry -> entry.contains("unknown setting"));
    }

    @Test
    void aConfiguredSettingOfSeveralValuesCannotRun(@TempDir Path root) throws IOException {
        Files.writeString(root.resolve("arena.yaml"), "evals:\n  retriever-sweep:\n    configurations:\n"
                + "      keyword: {index: keyword, top_k: [1, 3]}\n");
        EngineRun run = new EngineRun(output).with(Constants.PROJECT_ROOT, root.toString())
                .execute(RetrieverSweepFixture.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(cannotRun("RetrieverSweepFixture"),
                finishedWithFailure(message(m -> m.contains("arena.evals.retriever-sweep.configurations.keyword (in ")
                        && m.contains("gives the setting 'top_k' a list; give it one value")))));
    }

    @Test
    void oddNamesWorkWhereverAModelKeyDoes() {
        EngineRun run = new EngineRun(output).execute(SweepFixtures.OddNamesFixture.class);

        List<String> names = List.of("top k 5", "\u00e9t\u00e9/\u03ba=5 \ud83d\ude80", "bm25:k5",
                SweepFixtures.LONG_NAME);
        for (String name : names) {
            run.results().containerEvents().assertThatEvents().haveExactly(1,
                    event(container(), displayName(name), finishedSuccessfully()));
            assertThat(run.lines()).filteredOn(line -> line.get("model").asText().equals(name))
                    .extracting(line -> line.get("status").asText()).containsExactly("passed", "passed");
        }
    }

    @Test
    void aMissingSettingIsAnErrorOfTheCaseNamingConfigurationAndSetting() {
        EngineRun run = new EngineRun(output).execute(SweepFixtures.OddNamesFixture.class);

        assertThat(run.lines()).filteredOn(line -> line.get("model").asText().equals("no-top-k"))
                .hasSize(2).allSatisfy(line -> {
                    assertThat(line.get("status").asText()).isEqualTo("error");
                    assertThat(line.get("reason").asText()).contains("configuration 'no-top-k' has no setting "
                            + "'top_k' (its settings: index)");
                });
    }

    @Test
    void aConfigurationWithoutAModelFailsTheCallsOfItsTaskAndOneThatNamesItsModelCallsIt() {
        EngineRun run = new EngineRun(output).execute(SweepFixtures.ModelPerConfigurationFixture.class);

        assertThat(run.lines()).filteredOn(line -> line.get("model").asText().equals("none")).hasSize(2)
                .allSatisfy(line -> assertThat(line.get("error").asText()).contains(
                        "configuration 'none' of rag-sweep runs on no model, so its task cannot call one"));
        for (String configuration : List.of("small", "large")) {
            assertThat(run.lines()).filteredOn(line -> line.get("model").asText().equals(configuration)).hasSize(2)
                    .allSatisfy(line -> {
                        assertThat(line.get("status").asText()).isEqualTo("passed");
                        assertThat(line.get("output").asText()).startsWith(configuration + ": ");
                        assertThat(line.get("tokens_in").asInt()).isPositive();
                    });
        }
    }

    @Test
    void carelessDeclarationsAreDiscoveryIssuesNamingTheFix() {
        assertThat(issues(SweepFixtures.DuplicateNamesFixture.class)).anyMatch(m -> m.contains(
                "two configurations of " + SweepFixtures.DuplicateNamesFixture.class.getName() + " are named 'bm25'"));
        assertThat(issues(SweepFixtures.NoConfigurationsFixture.class)).anyMatch(m -> m.contains(
                "@EvalConfigurations on " + SweepFixtures.NoConfigurationsFixture.class.getName()
                        + " lists no configuration"));
        assertThat(issues(SweepFixtures.BadSettingsFixture.class))
                .anyMatch(m -> m.contains("has the setting \"top_k\"; write each setting as key=value"))
                .anyMatch(m -> m.contains("gives the setting 'index' twice"))
                .anyMatch(m -> m.contains("(name = \" padded \")") && m.contains("surrounding spaces"))
                .anyMatch(m -> m.contains("(name = \"tab\\u0009here\")") && m.contains("control character"))
                .anyMatch(m -> m.contains("(name = \"\")") && m.contains("blank name"));
        assertThat(issues(SweepFixtures.ConfigurationWithoutConfigurationsFixture.class)).anyMatch(m -> m.contains(
                "takes a TaskConfiguration, but the class declares no @EvalConfiguration"));
        assertThat(issues(SweepFixtures.NoTaskFixture.class)).anyMatch(m -> m.contains(
                "declares @EvalConfigurations but no @Task to run them"));
        assertThat(issues(SweepFixtures.TwoModelsFixture.class)).anyMatch(m -> m.contains(
                "compares configurations, so its configurations run on one model, but it names 2 (sim_small, "
                        + "sim_large)"));
    }

    @Test
    void aCarelessDeclarationCannotRunAndCallsNoModel() {
        EngineRun run = new EngineRun(output).execute(SweepFixtures.DuplicateNamesFixture.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(cannotRun("DuplicateNamesFixture"),
                finishedWithFailure(message(m -> m.contains("are named 'bm25'")))));
    }

    private static List<String> issues(Class<?> evalClass) {
        return EngineTestKit.engine(Constants.ENGINE_ID).selectors(selectClass(evalClass)).discover()
                .getDiscoveryIssues().stream().map(DiscoveryIssue::message).collect(Collectors.toList());
    }
}
