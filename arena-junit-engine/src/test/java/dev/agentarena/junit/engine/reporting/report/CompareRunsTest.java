package dev.agentarena.junit.engine.reporting.report;

import static dev.agentarena.junit.engine.reporting.report.ReportFiles.line;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareRunsTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return CompareRuns.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void exitsWithZeroWhenNoCaseRegressed() {
        Path old = ReportFiles.write(dir.resolve("old.jsonl"), List.of(line("m", "a", "s", "failed", 0.0, "x")));
        Path now = ReportFiles.write(dir.resolve("new/results.jsonl"), List.of(line("m", "a", "s", "passed", 1.0,
                "y")));

        assertThat(run(old.toString(), now.getParent().toString())).isEqualTo(CompareRuns.UNCHANGED);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("0 regressed, 1 improved").contains("no case regressed");
    }

    @Test
    void exitsWithOneAndNamesTheCasesWhenOneRegressed() {
        Path old = ReportFiles.write(dir.resolve("old.jsonl"), List.of(line("m", "a", "s", "passed", 1.0, "x"),
                line("m", "b", "s", "passed", 1.0, "x")));
        Path now = ReportFiles.write(dir.resolve("new.jsonl"), List.of(line("m", "a", "s", "failed", 0.0, "y"),
                line("m", "b", "s", "passed", 1.0, "x")));

        int status = run("--report", dir.resolve("out/report.html").toString(), old.toString(), now.toString());

        assertThat(status).isEqualTo(CompareRuns.REGRESSED);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("1 case regressed on m in triage: tickets/a");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("cases regressed since the results " + old);
        assertThat(dir.resolve("out/report.html")).exists();
    }

    @Test
    void exitsWithTwoWhenARunCannotBeRead() throws Exception {
        Path now = ReportFiles.write(dir.resolve("new.jsonl"), List.of(line("m", "a", "s", "passed", 1.0, "x")));
        Path broken = dir.resolve("broken.jsonl");
        Files.writeString(broken, "{\"oops\": 1}\n");

        assertThat(run(dir.resolve("missing.jsonl").toString(), now.toString())).isEqualTo(CompareRuns.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("missing.jsonl does not exist");
        assertThat(run(broken.toString(), now.toString())).isEqualTo(CompareRuns.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(broken + ", line 1: not a result");
        assertThat(run(now.toString())).isEqualTo(CompareRuns.FAILED);
        assertThat(run("--tolerance", "2", now.toString(), now.toString())).isEqualTo(CompareRuns.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--tolerance is \"2\"");
    }
    @Test
    void aLineWithAFieldOfTheWrongKindIsAnErrorNamingTheFileTheLineAndTheFieldNotASilentComparison()
            throws Exception {
        Path old = ReportFiles.write(dir.resolve("old.jsonl"), List.of(line("m", "a", "s", "passed", 1.0, "x"),
                line("m", "b", "s", "passed", 1.0, "x")));
        String[][] faults = {{"score", "\"abc\"", "\"score\" is \"abc\", not a number"},
                {"status", "\"bogus\"", "\"status\" is \"bogus\", not one of passed"},
                {"case_id", "5", "\"case_id\" is 5, not a text"},
                {"repeat", "\"x\"", "\"repeat\" is \"x\", not a whole number"},
                {"score", "null", "a passed result without a \"score\""}};
        for (String[] fault : faults) {
            String good = ReportFiles.JSON.writeValueAsString(line("m", "a", "s", "passed", 1.0, "x"));
            String bad = ReportFiles.JSON.writeValueAsString(line("m", "b", "s", "passed", 1.0, "x"))
                    .replaceFirst("\"" + fault[0] + "\":[^,]*,", "\"" + fault[0] + "\":" + fault[1] + ",");
            Path now = dir.resolve("new-" + fault[0] + ".jsonl");
            Files.writeString(now, good + "\n" + bad + "\n");
            err.reset();

            assertThat(run(old.toString(), now.toString())).as(fault[2]).isEqualTo(CompareRuns.FAILED);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains(now + ", line 2: not a result (" + fault[2]);
            assertThat(run(now.toString(), old.toString())).as("as the previous run: " + fault[2])
                    .isEqualTo(CompareRuns.FAILED);
        }
    }

    @Test
    void anEmptyRunIsAnErrorNotAComparisonOfNothing() throws Exception {
        Path full = ReportFiles.write(dir.resolve("full.jsonl"), List.of(line("m", "a", "s", "passed", 1.0, "x")));
        Path empty = Files.writeString(dir.resolve("empty.jsonl"), "\n");

        assertThat(run(full.toString(), empty.toString())).isEqualTo(CompareRuns.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("The new run " + empty + " holds no results");
        assertThat(run(empty.toString(), full.toString())).isEqualTo(CompareRuns.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("The previous run " + empty + " holds no results");
    }

    @Test
    void aByteOrderMarkBeforeTheFirstLineIsRead() throws Exception {
        Path old = ReportFiles.write(dir.resolve("old.jsonl"), List.of(line("m", "a", "s", "passed", 1.0, "x")));
        Path now = dir.resolve("new.jsonl");
        Files.writeString(now, "\uFEFF" + Files.readString(old).replace("\"passed\",", "\"failed\",")
                .replace("\"score\":1.0", "\"score\":0.0").replace("\"passed\":true", "\"passed\":false"));

        assertThat(run(old.toString(), now.toString())).isEqualTo(CompareRuns.REGRESSED);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("1 case regressed on m in triage: tickets/a");
    }

    @Test
    void theLinesOfACaseNeedNotBeTogetherEachCaseAndModelCountsOnce() {
        Path old = ReportFiles.write(dir.resolve("old.jsonl"), List.of(line("m", "a", "s", "passed", 1.0, "x"),
                line("m", "a", "t", "passed", 1.0, "x"), line("m", "b", "s", "passed", 1.0, "x"),
                line("m", "b", "t", "passed", 1.0, "x")));
        // scorer by scorer, as a file sorted or concatenated by another tool has them
        Path now = ReportFiles.write(dir.resolve("new.jsonl"), List.of(line("m", "a", "s", "passed", 1.0, "x"),
                line("m", "b", "s", "failed", 0.0, "y"), line("m", "a", "t", "failed", 0.0, "x"),
                line("m", "b", "t", "failed", 0.0, "y")));

        assertThat(run(old.toString(), now.toString())).isEqualTo(CompareRuns.REGRESSED);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("2 regressed, 0 improved, 0 unchanged, 0 new, 0 removed")
                .contains("2 cases regressed on m in triage: tickets/b, tickets/a");
    }
}
