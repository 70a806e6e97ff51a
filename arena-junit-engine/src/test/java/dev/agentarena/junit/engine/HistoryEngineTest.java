package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.evalClass;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.junit.engine.fixtures.history.DriftingFixture;
import dev.agentarena.junit.engine.reporting.history.HistoryEntry;
import dev.agentarena.junit.engine.reporting.history.RunHistory;

/**
 * The run history ({@code arena.history.file}) as runs of the engine keep it: an entry per full run with the
 * leaderboard's numbers and the cases whose verdict changed, the report's trend block, none for a partial run, and a
 * damaged history said and left as it was.
 */
class HistoryEngineTest {

    @TempDir
    Path dir;

    private Path history() {
        return dir.resolve("ci/history.jsonl");
    }

    private EngineRun run(int wrong) {
        DriftingFixture.wrong = wrong;
        try {
            return new EngineRun(dir.resolve("out")).with(Constants.HISTORY_FILE, history().toString())
                    .with(Constants.LOW_SCORES, "report")
                    .with("arena.gates.min-accuracy.drifting.sim_small", "0.9").execute(DriftingFixture.class);
        }
        finally {
            DriftingFixture.wrong = 0;
        }
    }

    @Test
    void eachRunAppendsItsSummaryAndTheCasesWhoseVerdictChanged() throws IOException {
        run(0);
        run(0);
        run(6);

        List<HistoryEntry> entries = new RunHistory(history(), 100).read();
        assertThat(entries).hasSize(3);
        assertThat(entries).extracting(HistoryEntry::run).doesNotHaveDuplicates();
        HistoryEntry.EvalModel first = entries.get(0).evals().get(0);
        assertThat(first.eval()).isEqualTo("drifting");
        assertThat(first.model()).isEqualTo("sim_small");
        assertThat(first.accuracy().value()).isEqualTo(1.0);
        assertThat(first.cases()).isEqualTo(20);
        assertThat(first.gates()).extracting(HistoryEntry.Gate::status).containsExactly("passed");
        assertThat(first.changes()).isNull();
        assertThat(entries.get(1).evals().get(0).changes().cases()).isEmpty();
        HistoryEntry.EvalModel last = entries.get(2).evals().get(0);
        assertThat(last.accuracy().value()).isEqualTo(0.7);
        assertThat(last.gates()).extracting(HistoryEntry.Gate::status).containsExactly("failed");
        assertThat(last.changes().broke()).isEqualTo(6);
        assertThat(last.changes().cases()).extracting(HistoryEntry.Changed::id).containsExactly("case-00", "case-01",
                "case-02", "case-03", "case-04", "case-05");
        assertThat(entries.get(2).build().source()).isNotNull();

        // six cases broke, none was fixed: exact McNemar p = 2 / 2^6 < 0.05
        String page = Files.readString(dir.resolve("out/report.html"));
        assertThat(page).contains("<script type=\"application/json\" id=\"arena-trends-data\">")
                .contains("\"significant\":true");
    }

    @Test
    void theConsoleSaysWhereTheRunsEntryWentAndHowManyRunsTheHistoryHolds() {
        String first = console(() -> run(0));
        String second = console(() -> run(0));

        assertThat(first).contains("[arena] history: " + history() + " (1 run)");
        assertThat(second).contains("[arena] history: " + history() + " (2 runs)");
    }

    private static String console(Runnable run) {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream original = System.out;
        try {
            System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
            run.run();
        }
        finally {
            System.setOut(original);
        }
        return console.toString(StandardCharsets.UTF_8);
    }

    @Test
    void withoutAHistoryThePageHasNoTrends() throws IOException {
        new EngineRun(dir.resolve("out")).execute(DriftingFixture.class);

        assertThat(Files.readString(dir.resolve("out/report.html"))).doesNotContain("id=\"arena-trends-data\"");
        assertThat(history()).doesNotExist();
    }

    @Test
    void aPartialRunKeepsNoEntry() {
        EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, dir.resolve("out").toString())
                .configurationParameter(Constants.SIM_LATENCY_MS, "0")
                .configurationParameter(Constants.HISTORY_FILE, history().toString())
                .selectors(evalClass(DriftingFixture.class).model("sim_small").evalCase("case-03").select())
                .execute();

        assertThat(dir.resolve("out/partial/results.jsonl")).exists();
        assertThat(history()).doesNotExist();
    }

    @Test
    void aDamagedHistoryIsSaidNamingTheLineAndLeftAsItWas() throws IOException {
        run(0);
        Files.writeString(history(), Files.readString(history()) + "{\"version\": 1, \"ti\n");
        byte[] before = Files.readAllBytes(history());
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream original = System.out;
        try {
            System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
            run(1);
        }
        finally {
            System.setOut(original);
        }

        assertThat(console.toString(StandardCharsets.UTF_8)).contains("the run history " + history()
                + " is not written: " + history() + ":2 is not a history entry");
        assertThat(Files.readAllBytes(history())).isEqualTo(before);
        assertThat(dir.resolve("out/report.html")).content().doesNotContain("id=\"arena-trends-data\"");
    }
}
