package dev.agentarena.junit.engine.reporting.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardSettings;
import dev.agentarena.junit.engine.reporting.leaderboard.Results;
import dev.agentarena.junit.engine.results.ResultRecord;

class HistoryDriftTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return HistoryDrift.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** A history of 40-case runs passing so many cases each, every case costing {@code cost}. */
    private Path history(double cost, int... passes) throws IOException {
        Path file = dir.resolve("history.jsonl");
        RunHistory history = new RunHistory(file, 100);
        for (int i = 0; i < passes.length; i++) {
            List<ResultRecord> records = new ArrayList<>();
            for (int c = 0; c < 40; c++) {
                records.add(Results.of("triage", "sim_small", "case-" + c).score(c < passes[i] ? 1.0 : 0.0)
                        .cost(i == passes.length - 1 ? cost : 0.001).latency(20L).build());
            }
            history.record("run-" + i, Leaderboard.compute(records, LeaderboardSettings.defaults()), List.of(),
                    new HistoryEntry.Build("c0ffee" + i, "feat/\u001b[31m</script>", String.valueOf(i), "gitlab-ci"));
        }
        return file;
    }

    @Test
    void printsTheHistoryAsATableAndExitsWithZeroWithoutDrift() throws IOException {
        Path file = history(0.001, 30, 32, 31);

        assertThat(run(file.toString())).isEqualTo(HistoryDrift.STEADY);

        assertThat(out()).contains("triage · sim_small, last 3 builds:")
                .contains("#2 c0ffee2").contains("0.775 [")
                .contains("no drift of accuracy past 0.050 (5.0 points) over the last 10 builds");
        assertThat(out()).as("a branch's control characters never reach the console").doesNotContain("\u001b");
    }

    @Test
    void exitsWithOneWhenAccuracyFallsMoreThanTheThresholdBelowTheBestOfTheLastBuilds() throws IOException {
        Path file = history(0.001, 30, 36, 31, 30);

        assertThat(run(file.toString())).isEqualTo(HistoryDrift.DRIFTED);
        assertThat(err()).contains("accuracy drifted (sim_small in triage): 0.750 in the newest build #3 c0ffee3")
                .contains("0.150 below the best of the last 4 builds (0.900 in #1 c0ffee1");

        out.reset();
        err.reset();
        assertThat(run("--last", "2", file.toString())).as("the best build is out of the window")
                .isEqualTo(HistoryDrift.STEADY);
        assertThat(run("--threshold", "0.2", file.toString())).isEqualTo(HistoryDrift.STEADY);
    }

    @Test
    void exitsWithOneWhenCostPerCaseRisesMoreThanTheThresholdAboveTheLowest() throws IOException {
        Path file = history(0.0013, 30, 30, 30);

        assertThat(run("--metric", "cost_per_case", file.toString())).isEqualTo(HistoryDrift.DRIFTED);
        assertThat(err()).contains("cost_per_case drifted").contains("30.0% above the lowest");
        assertThat(run("--metric", "cost_per_case", "--threshold", "0.5", file.toString()))
                .isEqualTo(HistoryDrift.STEADY);
    }

    @Test
    void exitsWithTwoOnADamagedHistoryOrAWrongCommandLine() throws IOException {
        Path file = history(0.001, 30, 30);
        Files.writeString(file, Files.readString(file) + "not json\n");

        assertThat(run(file.toString())).isEqualTo(HistoryDrift.FAILED);
        assertThat(err()).contains(file + ":3 is not a history entry")
                .contains("fix or delete that line")
                .as("the command only reads: it has no run whose entry is not added")
                .doesNotContain("entry is not added");
        assertThat(run(dir.resolve("missing.jsonl").toString())).isEqualTo(HistoryDrift.FAILED);
        assertThat(err()).contains("there is no history file at");
        assertThat(run("--metric", "vibes", file.toString())).isEqualTo(HistoryDrift.FAILED);
        assertThat(err()).contains("--metric is \"vibes\"");
        assertThat(run("--last", "1", file.toString())).isEqualTo(HistoryDrift.FAILED);
        assertThat(run("--threshold", "5", file.toString())).isEqualTo(HistoryDrift.FAILED);
        assertThat(err()).contains("a fall in [0, 1]");
        assertThat(run()).isEqualTo(HistoryDrift.FAILED);
    }

    @Test
    void theRealMainExitsWithTheStatus() throws Exception {
        Path file = history(0.001, 36, 30);

        Process drifted = new ProcessBuilder(RunHistoryTest.javaCommand(HistoryDrift.class.getName(),
                file.toString())).start();
        String printed = new String(drifted.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String said = new String(drifted.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(drifted.waitFor(5, TimeUnit.MINUTES)).isTrue();

        assertThat(drifted.exitValue()).as(said).isEqualTo(HistoryDrift.DRIFTED);
        assertThat(printed).contains("triage · sim_small, last 2 builds:");
        assertThat(said).contains("accuracy drifted");

        Process steady = new ProcessBuilder(RunHistoryTest.javaCommand(HistoryDrift.class.getName(), "--threshold",
                "0.2", file.toString())).redirectErrorStream(true).start();
        String all = new String(steady.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(steady.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(steady.exitValue()).as(all).isEqualTo(HistoryDrift.STEADY);
    }
}
