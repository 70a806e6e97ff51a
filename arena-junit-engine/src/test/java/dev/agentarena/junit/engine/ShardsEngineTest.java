package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;
import dev.agentarena.junit.engine.fixtures.TriageFixture;
import dev.agentarena.junit.engine.fixtures.arena.ArenaFixture;
import dev.agentarena.junit.engine.fixtures.labels.AnnotatedLabelsFixture;
import dev.agentarena.junit.engine.fixtures.labels.LengthBiasedJudgeFixture;
import dev.agentarena.junit.engine.fixtures.redteam.GuardrailFixture;
import dev.agentarena.junit.engine.fixtures.redteam.RedTeamFixture;
import dev.agentarena.junit.engine.reporting.history.HistoryEntry;
import dev.agentarena.junit.engine.reporting.history.RunHistory;
import dev.agentarena.junit.engine.reporting.merge.MergeShards;
import dev.agentarena.junit.engine.results.ShardManifest;

/**
 * {@code arena.shard=i/n} and {@code MergeShards}: each shard runs a disjoint part of every dataset, every model and
 * repeat of a case in the same part, and writes its own results and manifest; merged, the shards give the leaderboard
 * the unsharded run gives (durations aside), and the merge refuses shards that do not make one run.
 */
class ShardsEngineTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GATE = Constants.GATES_PREFIX + "min-accuracy.triage-fixture";

    @TempDir
    Path work;

    @Test
    void threeShardsMergeIntoTheLeaderboardOfTheUnshardedRun() throws IOException {
        Path whole = work.resolve("whole");
        run(whole, null);
        Path shards = work.resolve("shards");
        for (int i = 1; i <= 3; i++) {
            run(shards, i + "/3");
        }

        Merge merge = merge("--output", work.resolve("merged").toString(), shards.toString());

        assertThat(merge.status).as(merge.toString()).isEqualTo(MergeShards.MERGED);
        assertThat(merge.out).contains("merging 3 shards: shard 1/3", "merged 80 results of 1 eval(s)");
        assertThat(withoutDurations(work.resolve("merged/leaderboard.json")))
                .isEqualTo(withoutDurations(whole.resolve("leaderboard.json")));
        assertThat(lines(work.resolve("merged/results.jsonl"))).containsExactlyInAnyOrderElementsOf(
                lines(whole.resolve("results.jsonl")));
    }

    @Test
    void theShardsKeepNoHistoryAndTheMergeAppendsTheMergedRunOnce() throws IOException {
        Path history = work.resolve("ci/history.jsonl");
        Path shards = work.resolve("shards");
        for (int i = 1; i <= 2; i++) {
            run(shards, i + "/2", Constants.HISTORY_FILE, history.toString());
        }
        assertThat(history).as("no shard appends").doesNotExist();

        Merge merge = merge("--output", work.resolve("merged").toString(), shards.toString());

        assertThat(merge.status).as(merge.toString()).isEqualTo(MergeShards.MERGED);
        assertThat(merge.out).contains("history: " + history + " (1 runs)");
        List<HistoryEntry> entries = new RunHistory(history, 100).read();
        assertThat(entries).singleElement().satisfies(entry -> assertThat(entry.evals())
                .extracting(row -> row.eval() + "/" + row.model() + "/" + row.cases())
                .containsExactlyInAnyOrder("triage-fixture/sim_small/40", "triage-fixture/sim_large/40"));
    }

    @Test
    void shardsOfAnArenaMergeIntoTheUnshardedArenaAndJudgeBias() throws IOException {
        Path whole = work.resolve("whole");
        runClass(ArenaFixture.class, whole, null);
        Path shards = work.resolve("shards");
        for (int i = 1; i <= 3; i++) {
            runClass(ArenaFixture.class, shards, i + "/3").testEvents().assertThatEvents().haveExactly(1,
                    org.junit.platform.testkit.engine.EventConditions.event(
                            org.junit.platform.testkit.engine.EventConditions.displayName("arena"),
                            org.junit.platform.testkit.engine.EventConditions.abortedWithReason(
                                    org.junit.platform.testkit.engine.TestExecutionResultConditions.message(
                                            text -> text.startsWith("arena rated once the shards are merged")))));
        }

        Merge merge = merge("--output", work.resolve("merged").toString(), shards.toString());

        assertThat(merge.status).as(merge.toString()).isEqualTo(MergeShards.MERGED);
        JsonNode merged = withoutDurations(work.resolve("merged/leaderboard.json"));
        JsonNode unsharded = withoutDurations(whole.resolve("leaderboard.json"));
        assertThat(merged.get("evals").get(0).get("arena")).as("the arena").isNotNull()
                .isEqualTo(unsharded.get("evals").get(0).get("arena"));
        assertThat(merged.get("evals").get(0).get("judgeBias")).isNotNull()
                .isEqualTo(unsharded.get("evals").get(0).get("judgeBias"));
        assertThat(merged).isEqualTo(unsharded);
        assertThat(Files.readAllLines(work.resolve("merged/arena-comparisons.jsonl")))
                .containsExactlyInAnyOrderElementsOf(Files.readAllLines(whole.resolve("arena-comparisons.jsonl")));
    }

    @Test
    void shardsOfARedTeamMergeIntoTheUnshardedAttackRatesAndTheirGate() throws IOException {
        String[] gate = {Constants.GATES_MAX_ATTACK_SUCCESS, "0.2"};
        Path whole = work.resolve("whole");
        runClass(RedTeamFixture.class, whole, null, gate);
        Path shards = work.resolve("shards");
        for (int i = 1; i <= 2; i++) {
            runClass(RedTeamFixture.class, shards, i + "/2", gate);
        }

        Merge merge = merge("--output", work.resolve("merged").toString(), shards.toString());

        assertThat(merge.status).as(merge.toString()).isEqualTo(MergeShards.JUDGED_FAILED);
        assertThat(merge.err).contains("gate failed: redteam / sim_vulnerable attack success rate in jailbreak ");
        assertThat(merge.out).contains("attack success rate (95% Wilson interval):");
        JsonNode merged = withoutDurations(work.resolve("merged/leaderboard.json"));
        JsonNode unsharded = withoutDurations(whole.resolve("leaderboard.json"));
        assertThat(merged.get("evals").get(0).get("redTeam")).as("the attack rates").isNotNull()
                .isEqualTo(unsharded.get("evals").get(0).get("redTeam"));
    }

    @Test
    void shardsOfAGuardrailComparisonMergeIntoTheUnshardedClassifiersAndTheNarrowedGates() throws IOException {
        String[] gates = {Constants.GATES_MAX_OVER_REFUSAL, "0.25",
                Constants.GATES_MAX_ATTACK_SUCCESS + ".guardrail.no guardrail", "1"};
        Path whole = work.resolve("whole");
        runClass(GuardrailFixture.class, whole, null, gates);
        Path shards = work.resolve("shards");
        for (int i = 1; i <= 2; i++) {
            runClass(GuardrailFixture.class, shards, i + "/2", gates);
        }

        Merge merge = merge("--output", work.resolve("merged").toString(), shards.toString());

        assertThat(merge.status).as(merge.toString()).isEqualTo(MergeShards.JUDGED_FAILED);
        assertThat(merge.err).contains("gate failed: guardrail / guardrail over-refusal rate 0.500 [0.150, 0.850] "
                + "(2 of 4) > 0.250 (max-over-refusal)");
        assertThat(merge.out).contains("gate passed: guardrail / no guardrail attack success rate in jailbreak "
                + "1.000 [0.510, 1.000] (4 of 4) <= 1.000 (max-attack-success.guardrail.no guardrail)");
        JsonNode merged = withoutDurations(work.resolve("merged/leaderboard.json"));
        JsonNode unsharded = withoutDurations(whole.resolve("leaderboard.json"));
        assertThat(merged.get("evals").get(0).get("redTeam").get("classifier")).hasSize(2);
        assertThat(merged.get("evals").get(0).get("redTeam")).isEqualTo(unsharded.get("evals").get(0).get("redTeam"));
    }

    @Test
    void shardsOfALabelledEvalMergeIntoTheUnshardedAgreementAndItsGate() throws IOException {
        StringBuilder csv = new StringBuilder("eval,case,model,human_verdict\n");
        for (int i = 0; i < 24; i++) {
            // the person passes the even cases; the judge scores by length alone, so it disagrees on some
            csv.append(String.format("length-biased-judge,c%02d,recorded,%s%n", i, i % 2 == 0 ? "pass" : "fail"));
        }
        String labels = Files.writeString(work.resolve("labels.csv"), csv).toString();
        String[] settings = {Constants.LABELS_FILE, labels, Constants.GATES_MIN_AGREEMENT, "0.9"};
        Path whole = work.resolve("whole");
        EngineExecutionResults unsharded = runClass(LengthBiasedJudgeFixture.class, whole, null, settings);
        String gateFailure = unsharded.testEvents().failed().stream()
                .filter(event -> event.getTestDescriptor().getDisplayName().startsWith("agreement "))
                .map(event -> event.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow()
                        .getMessage())
                .findFirst().orElseThrow(() -> new AssertionError("the unsharded run's agreement gate held"));
        Path shards = work.resolve("shards");
        for (int i = 1; i <= 3; i++) {
            runClass(LengthBiasedJudgeFixture.class, shards, i + "/3", settings).containerEvents().assertThatEvents()
                    .haveExactly(1, org.junit.platform.testkit.engine.EventConditions.event(
                            org.junit.platform.testkit.engine.EventConditions.displayName(
                                    "agreement with human labels"),
                            org.junit.platform.testkit.engine.EventConditions.abortedWithReason(
                                    org.junit.platform.testkit.engine.TestExecutionResultConditions.message(
                                            text -> text.startsWith("agreement measured once the shards are "
                                                    + "merged")))));
        }

        Merge merge = merge("--output", work.resolve("merged").toString(), shards.toString());

        assertThat(merge.status).as(merge.toString()).isEqualTo(MergeShards.JUDGED_FAILED);
        assertThat(merge.err).contains(gateFailure);
        assertThat(merge.out).contains("length-biased-judge: agreement of judge with human labels: kappa");
        JsonNode merged = withoutDurations(work.resolve("merged/leaderboard.json"));
        JsonNode run = withoutDurations(whole.resolve("leaderboard.json"));
        assertThat(merged.get("agreement")).as("the agreement").isNotEmpty().isEqualTo(run.get("agreement"));
        assertThat(merged.get("evals").get(0).at("/judgeBias/verbosity/withinHumanVerdicts"))
                .as("the judge's length within human verdicts").isNotNull()
                .isEqualTo(run.get("evals").get(0).at("/judgeBias/verbosity/withinHumanVerdicts"));
        assertThat(merged).isEqualTo(run);
    }

    @Test
    void aLabelsFileThatBrokeSinceTheShardsRanIsRefusedNamingItsLine() throws IOException {
        Path labels = Files.writeString(work.resolve("labels.csv"),
                "eval,case,model,human_verdict\nlength-biased-judge,c00,recorded,pass\n");
        Path shards = work.resolve("shards");
        for (int i = 1; i <= 2; i++) {
            runClass(LengthBiasedJudgeFixture.class, shards, i + "/2", Constants.LABELS_FILE, labels.toString());
        }
        Files.writeString(labels, "length-biased-judge,c01,recorded,maybe\n", StandardOpenOption.APPEND);

        Merge merge = merge("--output", work.resolve("merged").toString(), shards.toString());

        assertThat(merge.status).as(merge.toString()).isEqualTo(MergeShards.REFUSED);
        assertThat(merge.err).contains("length-biased-judge: its human labels cannot be read",
                "labels.csv:3: bad human_verdict 'maybe'");
        assertThat(work.resolve("merged/results.jsonl")).doesNotExist();
    }

    @Test
    void aShardRecordsItsClassesHumanLabelsAndAMergeWithoutTheClassRefusesSayingWhatToPutOnTheClassPath()
            throws IOException {
        Path shards = work.resolve("shards");
        for (int i = 1; i <= 2; i++) {
            runClass(AnnotatedLabelsFixture.class, shards, i + "/2");
        }
        ShardManifest first = ShardManifest.read(shards.resolve("shard-1-of-2/shard.json"));
        assertThat(first.evals().get(0).humanLabels()).as("shard.json names the class's labels file")
                .isEqualTo("annotated-labels.csv");
        JsonNode part = JSON.readTree(shards.resolve("shard-1-of-2/leaderboard.json").toFile()).get("agreement")
                .get(0);
        assertThat(part.get("partOfRun").asBoolean()).as("a shard's own figures say they are a part's").isTrue();
        assertThat(part.get("unmatchedLabels").asInt()).as("the other shard's labels are not 'unmatched' here")
                .isZero();

        Merge merged = merge("--output", work.resolve("merged").toString(), shards.toString());
        assertThat(merged.status).as(merged.toString()).isEqualTo(MergeShards.MERGED);
        assertThat(merged.out).as("read from the class on the merge's class path")
                .contains("annotated-labels: agreement of judge with human labels: kappa");

        // as on a machine whose merge has the dependencies on its class path but not the compiled tests
        for (int i = 1; i <= 2; i++) {
            Path directory = shards.resolve("shard-" + i + "-of-2");
            ShardManifest manifest = ShardManifest.read(directory.resolve(ShardManifest.FILE_NAME));
            ShardManifest.EvalRun run = manifest.evals().get(0);
            new ShardManifest(manifest.format(), manifest.index(), manifest.count(), manifest.engine(),
                    manifest.finished(), manifest.configuration(), List.of(new ShardManifest.EvalRun(run.eval(),
                            "com.acme.NotCompiledEvalTest", run.models(), run.datasets(), null,
                            run.humanLabels())), manifest.results(), manifest.resultsSha256())
                    .write(directory.resolve(ShardManifest.FILE_NAME));
        }

        Merge refused = merge("--output", work.resolve("refused").toString(), shards.toString());

        assertThat(refused.status).as(refused.toString()).isEqualTo(MergeShards.REFUSED);
        assertThat(refused.err).contains("annotated-labels: its shards measured agreement with the human labels of "
                + "@HumanLabels(\"annotated-labels.csv\") on com.acme.NotCompiledEvalTest, a class the merge's class "
                + "path does not have", "java -cp \"target/test-classes:target/classes:");
        assertThat(work.resolve("refused/results.jsonl")).as("refused before writing anything").doesNotExist();
    }

    @Test
    void aShardJsonThatNamesNoPossibleShardIsRefusedNamingTheFile() throws IOException {
        Path shards = work.resolve("shards");
        for (int i = 1; i <= 2; i++) {
            run(shards, i + "/2");
        }
        Path file = shards.resolve("shard-2-of-2/shard.json");
        Files.writeString(file, Files.readString(file).replace("\"index\" : 2", "\"index\" : 7"));

        Merge merge = merge(shards.toString());

        assertThat(merge.status).isEqualTo(MergeShards.REFUSED);
        assertThat(merge.err).contains(file + " names shard 7/2, which no run can be");
    }

    @Test
    void eachShardRunsItsOwnCasesWithAllTheirModelsAndWritesItsOwnFiles() throws IOException {
        Path shards = work.resolve("shards");
        Map<String, Set<Integer>> shardsOfCase = new HashMap<>();
        int results = 0;
        for (int i = 1; i <= 3; i++) {
            run(shards, i + "/3");
            Path directory = shards.resolve("shard-" + i + "-of-3");
            ShardManifest manifest = ShardManifest.read(directory.resolve(ShardManifest.FILE_NAME));
            assertThat(manifest.shard()).isEqualTo(i + "/3");
            assertThat(manifest.evals()).singleElement().satisfies(eval -> {
                assertThat(eval.eval()).isEqualTo("triage-fixture");
                assertThat(eval.models()).containsExactly("sim_small", "sim_large");
                assertThat(eval.partial()).isNull();
            });
            assertThat(manifest.configuration()).containsEntry(Constants.SIM_LATENCY_MS, "0")
                    .doesNotContainKey(Constants.SHARD);
            List<JsonNode> lines = new EngineRun(directory).lines();
            assertThat(manifest.results()).isEqualTo(lines.size());
            assertThat(directory.resolve("leaderboard.json")).exists();
            for (JsonNode line : lines) {
                shardsOfCase.computeIfAbsent(line.get("case_id").asText(), id -> new HashSet<>()).add(i);
            }
            int finalI = i;
            assertThat(lines).as("both models of every case of shard %d", i).allSatisfy(line -> assertThat(
                    lines.stream().filter(other -> other.get("case_id").equals(line.get("case_id")))
                            .map(other -> other.get("model").asText()).collect(Collectors.toSet()))
                    .as("shard %d", finalI).containsExactlyInAnyOrder("sim_small", "sim_large"));
            results += lines.size();
        }
        assertThat(results).isEqualTo(80);
        assertThat(shardsOfCase).hasSize(40).allSatisfy((id, in) -> assertThat(in).as(id).hasSize(1));
        assertThat(shards.resolve("results.jsonl")).as("nothing outside the shards' directories").doesNotExist();
    }

    @Test
    void aShardsGateAndLeaderboardTestsWaitForTheMergeWhichJudgesTheWholeRun() throws IOException {
        Path shards = work.resolve("shards");
        EngineExecutionResults first = run(shards, "1/2", GATE, "0.9", Constants.LEADERBOARD_TESTS, "true");
        run(shards, "2/2", GATE, "0.9", Constants.LEADERBOARD_TESTS, "true");

        List<TestExecutionResult> summaries = first.testEvents().finished().list().stream()
                .filter(event -> ArenaUniqueIdBuilder.isGate(event.getTestDescriptor().getUniqueId())
                        || ArenaUniqueIdBuilder.isLeaderboard(event.getTestDescriptor().getUniqueId()))
                .map(event -> event.getPayload(TestExecutionResult.class).orElseThrow()).collect(Collectors.toList());
        assertThat(summaries).hasSize(2).allSatisfy(result -> {
            assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.ABORTED);
            assertThat(result.getThrowable().orElseThrow()).hasMessageContaining("only shard 1/2 of triage-fixture "
                    + "runs here (arena.shard)").hasMessageContaining("MergeShards");
        });

        Merge merge = merge("--output", work.resolve("merged").toString(), shards.toString());
        // sim_small routes 30 of 40 right: 0.75 < 0.9
        assertThat(merge.status).as(merge.toString()).isEqualTo(MergeShards.JUDGED_FAILED);
        assertThat(merge.err).contains("the merged run failed 1 check(s)", "sim_small");
        assertThat(work.resolve("merged/leaderboard.json")).exists();
    }

    @Test
    void aMissingShardIsRefusedNamingIt() throws IOException {
        Path shards = work.resolve("shards");
        run(shards, "1/3");
        run(shards, "3/3");

        Merge merge = merge("--output", work.resolve("merged").toString(), shards.toString());

        assertThat(merge.status).isEqualTo(MergeShards.REFUSED);
        assertThat(merge.err).contains("merge refused: missing shard(s) 2/3 of 3: found only shard 1/3");
        assertThat(work.resolve("merged/leaderboard.json")).doesNotExist();
    }

    @Test
    void aShardGivenTwiceIsRefused() throws IOException {
        Path shards = work.resolve("shards");
        run(shards, "1/2");
        run(shards, "2/2");
        run(work.resolve("again"), "2/2");

        Merge merge = merge(shards.toString(), work.resolve("again").toString());

        assertThat(merge.status).isEqualTo(MergeShards.REFUSED);
        assertThat(merge.err).contains("a shard was given more than once (its cases would count twice): shard 2/2 in ");
    }

    @Test
    void shardsOfDifferentConfigurationsOrSplitsAreRefused() throws IOException {
        Path shards = work.resolve("shards");
        run(shards, "1/2");
        run(shards, "2/2", Constants.SEED, "7");

        Merge seeds = merge(shards.toString());
        assertThat(seeds.status).isEqualTo(MergeShards.REFUSED);
        assertThat(seeds.err).contains("the shards ran with different configurations", "arena.seed is unset in "
                + "shard 1/2", "but \"7\" in shard 2/2");

        Path splits = work.resolve("splits");
        run(splits, "1/2");
        run(splits, "2/3");
        assertThat(merge(splits.toString()).err).contains("split in different numbers of parts");
    }

    @Test
    void aRefusalQuotingADownloadedShardsFilesSpellsOutWhatATerminalWouldActOn() throws IOException {
        Path shards = work.resolve("shards");
        run(shards, "1/2");
        run(shards, "2/2");
        // a shard.json from elsewhere, whose setting carries a terminal's escape sequences
        Path file = shards.resolve("shard-2-of-2").resolve(ShardManifest.FILE_NAME);
        ShardManifest manifest = ShardManifest.read(file);
        Map<String, String> configuration = new HashMap<>(manifest.configuration());
        configuration.put(Constants.SEED, "7\u001b[2J\u001b]8;;https://example.invalid\u0007");
        new ShardManifest(manifest.format(), manifest.index(), manifest.count(), manifest.engine(),
                manifest.finished(), configuration, manifest.evals(), manifest.results(), manifest.resultsSha256())
                .write(file);

        Merge merge = merge(shards.toString());

        assertThat(merge.status).isEqualTo(MergeShards.REFUSED);
        assertThat(merge.err).contains("but \"7\\u001B[2J\\u001B]8;;https://example.invalid\\u0007\" in shard 2/2")
                .doesNotContain("\u001b").doesNotContain("\u0007");
    }

    @Test
    void shardsScoredByDifferentScorerVersionsAreRefused() throws IOException {
        Path shards = work.resolve("shards");
        run(shards, "1/2");
        run(shards, "2/2");
        // as if shard 2 had run from another commit: its label_match has another digest
        Path directory = shards.resolve("shard-2-of-2");
        Path results = directory.resolve("results.jsonl");
        List<String> changed = new ArrayList<>();
        for (String line : Files.readAllLines(results)) {
            changed.add(line.replaceFirst("\"scorer_version\":\"[^\"]*\"", "\"scorer_version\":\"other\""));
        }
        Files.write(results, changed);
        rewriteDigest(directory);

        Merge merge = merge(shards.toString());

        assertThat(merge.status).isEqualTo(MergeShards.REFUSED);
        assertThat(merge.err).contains("the shards scored with different scorer versions",
                "triage-fixture / label_match: ", "other in shard(s) 2/2");
        assertThat(work.resolve("target/arena/results.jsonl")).doesNotExist();
    }

    @Test
    void aResultsFileChangedSinceItsShardFinishedIsRefused() throws IOException {
        Path shards = work.resolve("shards");
        run(shards, "1/2");
        run(shards, "2/2");
        Path results = shards.resolve("shard-1-of-2/results.jsonl");
        List<String> lines = Files.readAllLines(results);
        Files.write(results, lines.subList(0, lines.size() - 1));

        Merge merge = merge(shards.toString());

        assertThat(merge.status).isEqualTo(MergeShards.REFUSED);
        assertThat(merge.err).contains("is not the file shard 1/2", "it has " + (lines.size() - 1) + " lines, its "
                + "shard.json counts " + lines.size());
    }

    @Test
    void noShardAtAllIsRefusedWithUsage() {
        Merge merge = merge(work.toString());
        assertThat(merge.status).isEqualTo(MergeShards.REFUSED);
        assertThat(merge.err).contains("no shard.json below");
        assertThat(merge().err).contains("no shard directory given; usage: MergeShards");
    }

    private EngineExecutionResults run(Path output, String shard, String... settings) {
        return runClass(TriageFixture.class, output, shard, settings);
    }

    private EngineExecutionResults runClass(Class<?> evalClass, Path output, String shard, String... settings) {
        Map<String, String> parameters = new HashMap<>();
        parameters.put(Constants.OUTPUT_DIR, output.toString());
        parameters.put(Constants.SIM_LATENCY_MS, "0");
        if (shard != null) {
            parameters.put(Constants.SHARD, shard);
        }
        for (int i = 0; i < settings.length; i += 2) {
            parameters.put(settings[i], settings[i + 1]);
        }
        return EngineTestKit.engine(Constants.ENGINE_ID).configurationParameters(parameters)
                .selectors(selectClass(evalClass)).execute();
    }

    private Merge merge(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of(args));
        if (!all.contains("--output")) {
            all.addAll(0, List.of("--output", work.resolve("target/arena").toString()));
        }
        if (args.length == 0) {
            all.clear();
        }
        int status = MergeShards.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Merge(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void rewriteDigest(Path directory) throws IOException {
        Path file = directory.resolve(ShardManifest.FILE_NAME);
        ShardManifest manifest = ShardManifest.read(file);
        ShardManifest.Digest digest = ShardManifest.digest(directory.resolve("results.jsonl"));
        new ShardManifest(manifest.format(), manifest.index(), manifest.count(), manifest.engine(),
                manifest.finished(), manifest.configuration(), manifest.evals(), digest.lines(), digest.sha256())
                .write(file);
    }

    /** The leaderboard without what measures time: latencies (durations differ from run to run). */
    static JsonNode withoutDurations(Path leaderboard) throws IOException {
        JsonNode root = JSON.readTree(leaderboard.toFile());
        for (JsonNode eval : root.get("evals")) {
            for (JsonNode model : eval.get("models")) {
                ((ObjectNode) model).remove(List.of("latencyP50Ms", "latencyP95Ms"));
                ((ObjectNode) model.get("normalized")).remove("latency");
            }
        }
        return root;
    }

    /** The results lines without their latency. */
    private static List<String> lines(Path results) throws IOException {
        return Files.readAllLines(results).stream().map(line -> line.replaceAll(",\"latency_ms\":\\d+", ""))
                .collect(Collectors.toList());
    }

    private record Merge(int status, String out, String err) {
    }
}
