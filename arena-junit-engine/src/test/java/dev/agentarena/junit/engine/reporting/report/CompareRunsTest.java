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
}
