package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.anyEvalClass;
import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.evalClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.abortedWithReason;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.AssertionFailedError;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;
import dev.agentarena.junit.engine.fixtures.BudgetFixture;
import dev.agentarena.junit.engine.fixtures.RepeatFixture;
import dev.agentarena.junit.engine.fixtures.RescoredTriageFixture;
import dev.agentarena.junit.engine.fixtures.TriageFixture;

/** The leaderboard, gates, baselines, repeats and budget, wired into the engine and run through it. */
class LeaderboardWiringTest {

    private static final ArenaUniqueIdBuilder TRIAGE = evalClass(TriageFixture.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path output;

    @BeforeEach
    @AfterEach
    void resetFixtures() {
        TriageFixture.regressed = Set.of();
        RepeatFixture.RUNS.clear();
        BudgetFixture.CALLS.set(0);
    }

    private EngineExecutionResults run(Map<String, String> settings, DiscoverySelector... selectors) {
        return EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.SIM_LATENCY_MS, "0")
                .configurationParameter(Constants.PROJECT_ROOT, output.toString())
                .configurationParameters(settings)
                .selectors(selectors)
                .execute();
    }

    private static Map<String, String> settings(String... keysAndValues) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            settings.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return settings;
    }

    @Test
    void leaderboardTestRunsAfterTheModelsAndTheRunWritesJsonHtmlAndTable() throws IOException {
        EngineExecutionResults results = run(settings(Constants.LEADERBOARD_TESTS, "true"), selectClass(TriageFixture.class));

        results.testEvents().assertThatEvents().haveExactly(1,
                event(anyEvalClass().leaderboard().node(), finishedSuccessfully()));
        List<UniqueId> finished = results.testEvents().finished().stream()
                .map(e -> e.getTestDescriptor().getUniqueId()).collect(Collectors.toList());
        assertThat(finished.get(finished.size() - 1)).matches(ArenaUniqueIdBuilder::isLeaderboard);
        // 40 cases x 2 models x 1 scorer, plus the leaderboard
        assertThat(finished).hasSize(81);

        List<Map<String, String>> entries = results.allEvents().reportingEntryPublished().stream()
                .filter(e -> anyEvalClass().leaderboard().matches(e.getTestDescriptor().getUniqueId()))
                .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs())
                .collect(Collectors.toList());
        assertThat(entries).hasSize(2);
        assertThat(entries.get(0)).containsEntry("model", "sim_large").containsEntry("rank", "1")
                .containsEntry("accuracy", "0.9500").containsKeys("composite", "accuracy_ci");
        assertThat(entries.get(1)).containsEntry("model", "sim_small").containsEntry("rank", "2")
                .containsEntry("accuracy", "0.7500");

        assertThat(output.resolve("leaderboard.json")).isRegularFile();
        assertThat(Files.readString(output.resolve("leaderboard.html"))).contains("<html", "triage-fixture",
                "sim_small", "sim_large");
    }

    @Test
    void rankingIntervalsAndPairedTestAgreeWithAHandComputation() throws IOException {
        run(settings(), selectClass(TriageFixture.class));

        JsonNode eval = board().get("evals").get(0);
        assertThat(eval.get("eval").asText()).isEqualTo("triage-fixture");
        JsonNode best = eval.get("models").get(0);
        JsonNode second = eval.get("models").get(1);
        assertThat(best.get("model").asText()).isEqualTo("sim_large");
        assertThat(second.get("model").asText()).isEqualTo("sim_small");
        assertThat(best.get("rank").asInt()).isEqualTo(1);

        int n = TriageFixture.caseIds().size();
        for (JsonNode model : List.of(best, second)) {
            Set<String> wrong = TriageFixture.WRONG.get(model.get("model").asText());
            int right = n - wrong.size();
            double[] wilson = wilson(right, n);
            JsonNode accuracy = model.get("accuracy");
            assertThat(accuracy.get("value").asDouble()).isCloseTo((double) right / n, within(1e-12));
            assertThat(accuracy.get("method").asText()).isEqualTo("wilson");
            assertThat(accuracy.get("n").asInt()).isEqualTo(n);
            assertThat(accuracy.get("ciLow").asDouble()).isCloseTo(wilson[0], within(1e-9));
            assertThat(accuracy.get("ciHigh").asDouble()).isCloseTo(wilson[1], within(1e-9));
        }

        // sim_small against the best, on the 40 shared cases: b = only sim_small right, c = only sim_large right
        Set<String> small = TriageFixture.WRONG.get("sim_small");
        Set<String> large = TriageFixture.WRONG.get("sim_large");
        int b = 0;
        int c = 0;
        for (String id : TriageFixture.caseIds()) {
            b += !small.contains(id) && large.contains(id) ? 1 : 0;
            c += small.contains(id) && !large.contains(id) ? 1 : 0;
        }
        double p = 0;
        for (int i = 0; i <= Math.min(b, c); i++) {
            p += binomial(b + c, i) / Math.pow(2, b + c);
        }
        p = Math.min(1, 2 * p);
        JsonNode versus = second.get("vsBest");
        assertThat(versus.get("b").asInt()).isEqualTo(b).isEqualTo(1);
        assertThat(versus.get("c").asInt()).isEqualTo(c).isEqualTo(9);
        assertThat(versus.get("test").asText()).isEqualTo("mcnemar");
        assertThat(versus.get("p").asDouble()).isCloseTo(p, within(1e-12));
        assertThat(versus.get("significant").asBoolean()).isEqualTo(p < 0.05).isTrue();
        assertThat(versus.get("meanDifference").asDouble()).isCloseTo((double) (b - c) / n, within(1e-12));
        assertThat(best.get("vsBest").isNull()).isTrue();
    }

    @Test
    void gateBelowAccuracyPassesAndGateAboveFailsNamingEvalModelScorerValueAndThreshold() {
        EngineExecutionResults results = run(settings(
                "arena.gates.min-accuracy.triage-fixture.sim_small", "0.7",
                "arena.gates.min-accuracy.triage-fixture.sim_large.label_match", "0.97"),
                selectClass(TriageFixture.class));

        results.testEvents().assertThatEvents()
                .haveExactly(1, event(anyEvalClass().gate("min-accuracy.triage-fixture.sim_small").node(),
                        finishedSuccessfully()))
                .haveExactly(1, event(anyEvalClass().gate("min-accuracy.triage-fixture.sim_large.label_match").node(),
                        finishedWithFailure(instanceOf(AssertionFailedError.class), message(
                                "gate failed: triage-fixture / sim_large / label_match accuracy 0.950 < 0.970 "
                                        + "(min-accuracy)"))));
        Event gate = results.testEvents().finished().stream()
                .filter(e -> ArenaUniqueIdBuilder.isGate(e.getTestDescriptor().getUniqueId()))
                .findFirst().orElseThrow();
        assertThat(gate.getTestDescriptor().getLegacyReportingName())
                .isEqualTo(gate.getTestDescriptor().getDisplayName()).startsWith("gate min-accuracy.triage-fixture.");
    }

    @Test
    void gatesOverAPartialSelectionAreAbortedSayingWhy() {
        EngineExecutionResults results = run(settings("arena.gates.min-accuracy", "0.99"),
                TRIAGE.model("sim_small").evalCase("t01").select());

        assertThat(results.testEvents().finished().stream()
                .filter(e -> ArenaUniqueIdBuilder.isScorer(e.getTestDescriptor().getUniqueId()))).hasSize(1);
        results.testEvents().assertThatEvents().haveExactly(1, event(anyEvalClass().gate("min-accuracy").node(),
                abortedWithReason(message(m -> m.contains("only part of triage-fixture was selected")))));
    }

    @Test
    void selectingAGateByUniqueIdRunsTheWholeClass() {
        EngineExecutionResults results = run(settings("arena.gates.min-accuracy", "0.7"),
                TRIAGE.gate("min-accuracy").select());

        assertThat(results.testEvents().finished().count()).isEqualTo(81);
        results.testEvents().assertThatEvents().haveExactly(1,
                event(anyEvalClass().gate("min-accuracy").node(), finishedSuccessfully()));
    }

    @Test
    void baselinePassesAnUnchangedRerunAndFailsOnAScorerChangeOrARegression() throws IOException {
        String file = output.resolve("baseline.json").toString();
        EngineExecutionResults written = run(settings("arena.baseline.path", file, "arena.baseline.update", "true"),
                selectClass(TriageFixture.class));
        written.testEvents().assertThatEvents().haveExactly(1,
                event(anyEvalClass().baseline().node(), finishedSuccessfully()));
        String baseline = Files.readString(Path.of(file));
        assertThat(baseline).contains("\"eval\" : \"triage-fixture\"", "\"scorer\" : \"label_match\"");

        EngineExecutionResults unchanged = run(settings("arena.baseline.path", file),
                selectClass(TriageFixture.class));
        unchanged.testEvents().assertThatEvents().haveExactly(1,
                event(anyEvalClass().baseline().node(), finishedSuccessfully()));

        EngineExecutionResults rescored = run(settings("arena.baseline.path", file),
                selectClass(RescoredTriageFixture.class));
        rescored.testEvents().assertThatEvents().haveExactly(1, event(anyEvalClass().baseline().node(),
                finishedWithFailure(instanceOf(AssertionFailedError.class), message(m -> m.contains(
                        "refused: triage-fixture / sim_small / label_match: scorer label_match changed version")
                        && m.contains("re-baseline with -Darena.baseline.update=true")))));

        TriageFixture.regressed = Set.of("t01", "t02", "t04", "t05", "t06", "t08", "t09", "t10");
        EngineExecutionResults regressed = run(settings("arena.baseline.path", file),
                selectClass(TriageFixture.class));
        regressed.testEvents().assertThatEvents().haveExactly(1, event(anyEvalClass().baseline().node(),
                finishedWithFailure(instanceOf(AssertionFailedError.class), message(m -> m.startsWith(
                        "regressed: triage-fixture / sim_small / label_match accuracy 0.750 → 0.550")
                        && !m.contains("sim_large")))));
        assertThat(Files.readString(Path.of(file))).as("comparing never rewrites the baseline").isEqualTo(baseline);
    }

    @Test
    void repeatsRunEachCaseFiveTimesAndReportFlakiness() throws IOException {
        EngineExecutionResults results = run(settings(), selectClass(RepeatFixture.class));

        List<JsonNode> lines = results(output);
        assertThat(lines).hasSize(15);
        Map<String, List<Integer>> repeats = new LinkedHashMap<>();
        lines.forEach(l -> repeats.computeIfAbsent(l.get("case_id").asText(), k -> new ArrayList<>())
                .add(l.get("repeat").asInt()));
        assertThat(repeats).containsOnlyKeys("stable", "flaky", "broken");
        repeats.values().forEach(r -> assertThat(r).containsExactly(0, 1, 2, 3, 4));

        List<UniqueId> scorerIds = results.testEvents().finished().stream()
                .map(e -> e.getTestDescriptor().getUniqueId()).collect(Collectors.toList());
        assertThat(scorerIds).hasSize(15).anyMatch(anyEvalClass().evalCase("flaky").scorer("exact_match#r5")::matches);
        assertThat(new HashSet<>(results.testEvents().finished().stream()
                .map(e -> e.getTestDescriptor().getLegacyReportingName()).collect(Collectors.toList()))).hasSize(15);

        Event flakyCase = results.containerEvents().finished().stream()
                .filter(e -> anyEvalClass().evalCase("flaky").matches(e.getTestDescriptor().getUniqueId())).findFirst()
                .orElseThrow();
        assertThat(flakyCase.getTestDescriptor().getDisplayName()).isEqualTo("flaky ×5: 3/5 passed, flaky");
        Map<String, String> entry = results.allEvents().reportingEntryPublished().stream()
                .filter(e -> anyEvalClass().evalCase("flaky").matches(e.getTestDescriptor().getUniqueId()))
                .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs()).findFirst().orElseThrow();
        assertThat(entry).containsEntry("repeats", "5").containsEntry("flakiness.exact_match",
                "3/5 passed, min 0.00, max 1.00, spread 1.00, sd 0.490");
        assertThat(results.containerEvents().finished().stream()
                .filter(e -> anyEvalClass().evalCase("stable").matches(e.getTestDescriptor().getUniqueId())).findFirst()
                .orElseThrow().getTestDescriptor().getDisplayName()).isEqualTo("stable ×5: 5/5 passed");

        JsonNode flaky = board().get("evals").get(0).get("models").get(0).get("scorers").get(0).get("flaky");
        assertThat(flaky).hasSize(1);
        assertThat(flaky.get(0).get("caseId").asText()).isEqualTo("flaky");
        assertThat(flaky.get(0).get("passed").asInt()).isEqualTo(3);
        assertThat(flaky.get(0).get("runs").asInt()).isEqualTo(5);

        RepeatFixture.RUNS.clear();
        Path other = Files.createDirectories(output.resolve("override"));
        EngineExecutionResults overridden = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, other.toString())
                .configurationParameter(Constants.SIM_LATENCY_MS, "0")
                .configurationParameter(Constants.REPEATS, "2")
                .selectors(selectClass(RepeatFixture.class)).execute();
        assertThat(overridden.testEvents().finished().count()).as("arena.repeats wins over @Eval(repeats)")
                .isEqualTo(6);
    }

    @Test
    void budgetStopsModelCallsAndReportsTheCasesLeftOverAsNotRun() throws IOException {
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        EngineExecutionResults results;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            results = run(settings(Constants.BUDGET_USD, "5", "arena.models.sim_small.price.input-per-million",
                    "1000000", Constants.CONCURRENCY, "1"), selectClass(BudgetFixture.class));
        }
        finally {
            System.setOut(console);
        }

        // estimated before the first call: 5 cases x 3 input tokens ("say billing": 11 characters / 4) at $1 each
        String out = printed.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("[arena] cost estimate for budget-fixture (1 repeat): sim_small 5 cases, ~15 tokens "
                + "in and ~10 out, ~$15.0000; total ~$15.0000; budget $5.0000, $5.0000 left — the budget will likely "
                + "run out");
        assertThat(out.indexOf("cost estimate")).isLessThan(out.indexOf("[arena] budget-fixture sim_small"));
        assertThat(out).contains("[arena] spent $6.0000 of the budget of $5.0000; 3 model calls not run");

        // each call costs $3 (3 prompt tokens at $1 each): after two, $6 >= $5 and no further call starts
        assertThat(BudgetFixture.CALLS.get()).isEqualTo(2);
        results.testEvents().assertThatEvents()
                .haveExactly(2, event(anyEvalClass().scorer("exact_match").node(), finishedSuccessfully()))
                .haveExactly(3, event(anyEvalClass().scorer("exact_match").node(), abortedWithReason(
                        message(m -> m.startsWith("not run: budget of $5.0000 reached after $6.00")))));
        List<JsonNode> lines = results(output);
        assertThat(lines).hasSize(5);
        assertThat(lines.stream().filter(l -> l.get("status").asText().equals("not_run"))
                .map(l -> l.get("case_id").asText())).containsExactly("c3", "c4", "c5");
        assertThat(board().get("evals").get(0).get("models").get(0).get("notRun").asInt()).isEqualTo(3);
    }


    private JsonNode board() throws IOException {
        return JSON.readTree(output.resolve("leaderboard.json").toFile());
    }

    private static List<JsonNode> results(Path directory) throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(directory.resolve("results.jsonl"))) {
            lines.add(JSON.readTree(line));
        }
        return lines;
    }

    /** The Wilson score interval by its formula, z the 97.5% normal quantile. */
    private static double[] wilson(int successes, int n) {
        double z = 1.959963984540054;
        double p = (double) successes / n;
        double centre = p + z * z / (2.0 * n);
        double half = z * Math.sqrt(p * (1 - p) / n + z * z / (4.0 * n * n));
        double denominator = 1 + z * z / n;
        return new double[] {(centre - half) / denominator, (centre + half) / denominator};
    }

    private static double binomial(int n, int k) {
        double result = 1;
        for (int i = 1; i <= k; i++) {
            result = result * (n - k + i) / i;
        }
        return result;
    }
}
