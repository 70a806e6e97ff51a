package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The support-triage sample run as three shards ({@code arena.shard=i/3}) with the JUnit console launcher, then merged
 * with {@code MergeShards} as CI's merge job runs it ({@code java -cp ...}): the merged {@code leaderboard.json} is the
 * unsharded run's, latencies aside, and the merge checks the sample's gate and compares with its baseline.
 */
class ShardMergeIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path RUNS = Paths.get("target/shard-runs").toAbsolutePath();

    @Test
    void threeShardsMergedGiveTheUnshardedLeaderboard() throws Exception {
        Path whole = RUNS.resolve("whole");
        Path shards = RUNS.resolve("shards");
        deleteTree(RUNS);
        triage(whole, null);
        for (int i = 1; i <= 3; i++) {
            triage(shards, i + "/3");
        }
        for (int i = 1; i <= 3; i++) {
            assertThat(shards.resolve("shard-" + i + "-of-3/shard.json")).as("shard %d finished", i).exists();
        }

        Path merged = RUNS.resolve("merged");
        Process merge = new ProcessBuilder(java(), "-cp", System.getProperty("java.class.path"),
                "dev.agentarena.junit.engine.reporting.merge.MergeShards", "--output", merged.toString(),
                shards.toString()).redirectErrorStream(true).redirectOutput(RUNS.resolve("merge.log").toFile())
                .start();
        assertThat(merge.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String log = Files.readString(RUNS.resolve("merge.log"), StandardCharsets.UTF_8);

        assertThat(merge.exitValue()).as(log).isZero();
        assertThat(log).contains("merging 3 shards", "merged 128 results of 1 eval(s)",
                "gate passed: support-triage", "support-triage baseline: ");
        assertThat(withoutDurations(merged.resolve("leaderboard.json")))
                .isEqualTo(withoutDurations(whole.resolve("leaderboard.json")));
        assertThat(Files.readAllLines(merged.resolve("results.jsonl"))).hasSize(128);
    }

    /** Runs the support-triage sample with the console launcher, as one shard when one is given. */
    private static void triage(Path output, String shard) throws Exception {
        ConsoleRun run = ConsoleRun.with("console-junit5.jar")
                .select("--select-class", "dev.agentarena.samples.triage.SupportTriageEvalTest")
                .config("arena.output.dir", output.toString());
        if (shard != null) {
            run.config("arena.shard", shard);
        }
        String name = shard == null ? "whole" : "shard-" + shard.replace('/', '-');
        String console = run.run(RUNS.resolve(name + ".log"));
        assertThat(console).as(name).contains("tests found");
    }

    /** The leaderboard without what measures time: latencies differ from run to run. */
    private static JsonNode withoutDurations(Path leaderboard) throws Exception {
        JsonNode root = JSON.readTree(leaderboard.toFile());
        for (JsonNode eval : root.get("evals")) {
            for (JsonNode model : eval.get("models")) {
                ((ObjectNode) model).remove(List.of("latencyP50Ms", "latencyP95Ms"));
                ((ObjectNode) model.get("normalized")).remove("latency");
            }
        }
        return root;
    }

    private static String java() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void deleteTree(Path root) throws Exception {
        if (!Files.exists(root)) {
            return;
        }
        List<Path> paths = new ArrayList<>();
        try (var walk = Files.walk(root)) {
            walk.forEach(paths::add);
        }
        paths.sort((a, b) -> b.getNameCount() - a.getNameCount());
        for (Path path : paths) {
            Files.delete(path);
        }
    }
}
