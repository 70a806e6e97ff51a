package dev.agentarena.junit.engine.reporting.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.reporting.gates.GateResult;
import dev.agentarena.junit.engine.reporting.gates.GateSpec;
import dev.agentarena.junit.engine.reporting.gates.Gates;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardSettings;
import dev.agentarena.junit.engine.reporting.leaderboard.ModelEntry;
import dev.agentarena.junit.engine.reporting.leaderboard.Results;
import dev.agentarena.junit.engine.results.ResultRecord;

class RunHistoryTest {

    private static final HistoryEntry.Build BUILD = new HistoryEntry.Build("0123456789abcdef", "main", "41",
            "github-actions");

    @TempDir
    Path dir;

    /** {@code cases} cases of triage / sim_small, the first {@code passes} passing, each costing $0.001 and 20 ms. */
    static Leaderboard run(String eval, int cases, int passes) {
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < cases; i++) {
            records.add(Results.of(eval, "sim_small", String.format("case-%03d", i)).score(i < passes ? 1.0 : 0.0)
                    .cost(0.001).latency(20L).tokens(10, 5).build());
        }
        return Leaderboard.compute(records, LeaderboardSettings.defaults());
    }

    static Leaderboard run(int cases, int passes) {
        return run("triage", cases, passes);
    }

    private RunHistory history(int maxEntries) {
        return new RunHistory(dir.resolve("ci/history.jsonl"), maxEntries);
    }

    @Test
    void appendsOneLinePerRunWithTheLeaderboardsNumbersAndGates() throws IOException {
        Leaderboard leaderboard = run(40, 30);
        List<GateResult> gates = Gates.evaluate(leaderboard, GateSpec.parse(java.util.Map.of(
                "arena.gates.min-accuracy.triage.sim_small", "0.8", "arena.gates.max-cost-usd", "1")));

        List<HistoryEntry> entries = history(100).record("run-1", leaderboard, gates, BUILD);

        ModelEntry model = leaderboard.evals().get(0).models().get(0);
        assertThat(Files.readAllLines(dir.resolve("ci/history.jsonl"))).hasSize(1);
        HistoryEntry entry = history(100).read().get(0);
        assertThat(entry).isEqualTo(entries.get(0));
        assertThat(entry.version()).isEqualTo(HistoryEntry.VERSION);
        assertThat(entry.build()).isEqualTo(BUILD);
        assertThat(entry.gates()).singleElement().satisfies(gate -> assertThat(gate.status()).isEqualTo("passed"));
        assertThat(entry.evals()).singleElement().satisfies(row -> {
            assertThat(row.eval()).isEqualTo("triage");
            assertThat(row.accuracy().value()).isEqualTo(model.accuracy().value()).isEqualTo(0.75);
            assertThat(row.accuracy().low()).isEqualTo(model.accuracy().low());
            assertThat(row.accuracy().high()).isEqualTo(model.accuracy().high());
            assertThat(row.passRate().value()).isEqualTo(model.passRate().value());
            assertThat(row.cases()).isEqualTo(40);
            assertThat(row.costPerCase()).isEqualTo(model.costPerCase().value());
            assertThat(row.tokensIn()).isEqualTo(400);
            assertThat(row.latencyP50Ms()).isEqualTo(model.latencyP50Ms()).isEqualTo(20.0);
            assertThat(row.gates()).singleElement().satisfies(gate -> {
                assertThat(gate.gate()).isEqualTo("arena.gates.min-accuracy.triage.sim_small");
                assertThat(gate.status()).isEqualTo("failed");
                assertThat(gate.value()).isEqualTo(0.75);
            });
            assertThat(row.changes()).as("nothing to compare the first run with").isNull();
            assertThat(row.verdicts().passed()).hasSize(30).startsWith("case-000");
            assertThat(row.verdicts().failed()).hasSize(10).startsWith("case-030");
        });
    }

    @Test
    void listsTheCasesWhoseVerdictChangedSinceTheEvalsPreviousEntry() throws IOException {
        RunHistory history = history(100);
        history.record("run-1", run(40, 30), List.of(), BUILD);
        history.record("run-2", run("other", 5, 5), List.of(), BUILD);

        List<HistoryEntry> entries = history.record("run-3", run(40, 25), List.of(), BUILD);

        HistoryEntry.Changes changes = entries.get(2).evals().get(0).changes();
        assertThat(changes.fixed()).isZero();
        assertThat(changes.broke()).isEqualTo(5);
        assertThat(changes.cut()).isZero();
        assertThat(changes.cases()).extracting(HistoryEntry.Changed::id).containsExactly("case-025", "case-026",
                "case-027", "case-028", "case-029");
        assertThat(changes.cases()).noneMatch(HistoryEntry.Changed::passed);
    }

    @Test
    void listsAtMostFiftyChangedCasesAndCountsTheOthers() throws IOException {
        RunHistory history = history(100);
        history.record("run-1", run(200, 0), List.of(), BUILD);

        HistoryEntry.Changes changes = history.record("run-2", run(200, 120), List.of(), BUILD).get(1).evals().get(0)
                .changes();

        assertThat(changes.fixed()).isEqualTo(120);
        assertThat(changes.cases()).hasSize(RunHistory.MAX_CHANGED_CASES);
        assertThat(changes.cut()).isEqualTo(120 - RunHistory.MAX_CHANGED_CASES);
    }

    @Test
    void keepsTheNewestEntriesAndOnlyTheNewestTwoKeepEveryVerdict() throws IOException {
        RunHistory history = history(3);
        for (int i = 1; i <= 5; i++) {
            history.record("run-" + i, run(10, i), List.of(), BUILD);
        }

        List<HistoryEntry> entries = history.read();

        assertThat(entries).extracting(HistoryEntry::run).containsExactly("run-3", "run-4", "run-5");
        assertThat(entries).extracting(entry -> entry.evals().get(0).verdicts() != null)
                .containsExactly(false, true, true);
        assertThat(entries.get(2).evals().get(0).changes().fixed()).isEqualTo(1);
    }

    @Test
    void aLaterExecutionOfTheSameRunReplacesItsEntry() throws IOException {
        RunHistory history = history(100);
        history.record("run-1", run(10, 10), List.of(), BUILD);
        history.record("run-2", run(10, 5), List.of(), BUILD);

        List<HistoryEntry> entries = history.record("run-2", run(10, 4), List.of(), BUILD);

        assertThat(entries).extracting(HistoryEntry::run).containsExactly("run-1", "run-2");
        assertThat(entries.get(1).evals().get(0).changes().broke()).as("compared with run-1, not with itself")
                .isEqualTo(6);
    }

    @Test
    void aDamagedLineIsAnErrorNamingTheFileAndLineAndTheHistoryIsLeftAsItWas() throws IOException {
        RunHistory history = history(100);
        history.record("run-1", run(10, 10), List.of(), BUILD);
        Path file = dir.resolve("ci/history.jsonl");
        Files.writeString(file, "{\"version\": 1, \"time\": \"2026-01-01T00:00:00Z\", \"evals\": [\n",
                java.nio.file.StandardOpenOption.APPEND);
        byte[] before = Files.readAllBytes(file);

        assertThatThrownBy(() -> history.record("run-2", run(10, 10), List.of(), BUILD))
                .isInstanceOf(HistoryFile.DamagedHistory.class)
                .hasMessageStartingWith(file + ":2 is not a history entry")
                .hasMessageContaining("fix or delete that line");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        assertThat(dir.resolve("ci")).isDirectoryNotContaining(path -> path.toString().endsWith(".tmp"));
    }

    @Test
    void aLineOfANewerFormatIsRefusedNotDropped() throws IOException {
        Path file = dir.resolve("ci/history.jsonl");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "{\"version\": 2, \"time\": \"2026-01-01T00:00:00Z\"}\n");

        assertThatThrownBy(() -> history(100).record("run-1", run(10, 10), List.of(), BUILD))
                .hasMessageContaining(file + ":1 was written in version 2");
        assertThat(Files.readString(file)).startsWith("{\"version\": 2");
    }

    @Test
    void writersRacingOnOneHistoryEachAddTheirEntry() throws Exception {
        Leaderboard leaderboard = run(20, 10);
        int writers = 6;
        int each = 5;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < each; i++) {
                        history(1000).record("writer-" + writer + "-" + i, leaderboard, List.of(), BUILD);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : done) {
                future.get(5, TimeUnit.MINUTES);
            }
        }
        finally {
            pool.shutdownNow();
        }

        assertThat(history(1000).read()).extracting(HistoryEntry::run).hasSize(writers * each).doesNotHaveDuplicates();
    }

    @Test
    void processesRacingOnOneHistoryEachAddTheirEntry() throws Exception {
        Path file = dir.resolve("ci/history.jsonl");
        List<Process> processes = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            processes.add(new ProcessBuilder(javaCommand(RacingWriter.class.getName(), file.toString(), "process-"
                    + p, "10")).redirectErrorStream(true).start());
        }
        for (Process process : processes) {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(5, TimeUnit.MINUTES)).as(output).isTrue();
            assertThat(process.exitValue()).as(output).isZero();
        }

        assertThat(new HistoryFile(file).read()).extracting(HistoryEntry::run).hasSize(20).doesNotHaveDuplicates();
    }

    static List<String> javaCommand(String mainClass, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        return command;
    }

    @Test
    void aHistoryOfTenThousandRunsIsReadAndAppendedToInLinearWork() throws IOException {
        Path file = dir.resolve("ci/history.jsonl");
        Files.createDirectories(file.getParent());
        Leaderboard leaderboard = run(20, 10);
        HistoryEntry one = RunHistory.next(List.of(), "run", java.time.Instant.EPOCH, BUILD, leaderboard, List.of(),
                2).get(0);
        List<HistoryEntry> many = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            many.add(new HistoryEntry(one.version(), "run-" + i, one.time(), BUILD, one.evals(), one.gates()));
        }
        new HistoryFile(file).update(entries -> many);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu = threads.getCurrentThreadCpuTime();

        List<HistoryEntry> after = new RunHistory(file, 10_000).record("run-new", leaderboard, List.of(), BUILD);
        Trends trends = Trends.of(after);

        long cpuMs = (threads.getCurrentThreadCpuTime() - cpu) / 1_000_000;
        assertThat(after).hasSize(10_000).last().extracting(HistoryEntry::run).isEqualTo("run-new");
        assertThat(after.get(0).run()).isEqualTo("run-1");
        assertThat(trends.builds()).hasSize(Trends.MAX_BUILDS);
        assertThat(trends.omittedBuilds()).isEqualTo(10_000 - Trends.MAX_BUILDS);
        assertThat(cpuMs).as("CPU time of reading, appending to and drawing 10,000 runs").isLessThan(20_000);
    }

    @Test
    void hostileNamesAndBranchesGoThroughTheFileAsTheyAre() throws IOException {
        String eval = "e".repeat(100_000) + "</script><script>window.__pwned=1</script>";
        HistoryEntry.Build build = new HistoryEntry.Build("abc\u0000def", "feat/\u001b[31mred\r\n</script>\u202e",
                "7", "gitlab-ci");

        new RunHistory(dir.resolve("h.jsonl"), 10).record("run-1", run(eval, 3, 1), List.of(), build);

        List<String> lines = Files.readAllLines(dir.resolve("h.jsonl"));
        assertThat(lines).hasSize(1);
        HistoryEntry read = new HistoryFile(dir.resolve("h.jsonl")).read().get(0);
        assertThat(read.build()).isEqualTo(build);
        assertThat(read.evals().get(0).eval()).isEqualTo(eval);
    }
}
