package dev.agentarena.junit.engine.reporting.report;

import static dev.agentarena.junit.engine.reporting.report.ReportFiles.line;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Pins the bytes of the report's data blocks (every chunk, the string table, the meta without its time and path), so
 * that a faster write path cannot change what the page holds. The digests were taken from the writer before its
 * streaming rewrite; the template around the blocks is free to change.
 */
class CaseReportBytesTest {

    @TempDir
    Path dir;

    @Test
    void aRunWithoutAPreviousOneKeepsItsBytes() throws IOException {
        List<ObjectNode> lines = new ArrayList<>();
        for (String model : List.of("sim_small", "sim_large")) {
            for (int c = 0; c < 500; c++) {
                for (String scorer : List.of("exact_match", "contains", "regex")) {
                    ObjectNode line = line(model, "case-" + c, scorer, c % 7 == 0 ? "failed" : "passed",
                            c % 7 == 0 ? 0.0 : 1.0, c % 5 == 0 ? "other" : "billing " + (c % 3));
                    line.put("repeat", c % 2);
                    line.put("latency_ms", c);
                    line.put("cost_usd", c * 1.5e-6);
                    if (c % 11 == 0) {
                        line.putObject("metrics").put("f1", 0.25).put("n", c);
                        line.putArray("trajectory").addObject().put("type", "tool").put("name", "lookup");
                        line.put("error", "boom " + c);
                        line.putNull("score");
                        line.put("status", "error");
                    }
                    if (c % 13 == 0) {
                        line.put("status", "not_run");
                        line.put("cached", true);
                        line.putArray("tags").add("refund").add("billing");
                    }
                    line.put("input", "Ticket " + c + ": <b>caf\u00e9</b> & \u2028 \uD83D\uDE00 \u0001");
                    lines.add(line);
                }
            }
        }
        Path results = ReportFiles.write(dir.resolve("results.jsonl"), lines);

        assertThat(dataDigest(results, Optional.empty())).isEqualTo(
                "397311:8a34ce27060f8e27e92705f1db266f6e158104aa8b823db29a550d6e04c44797");
    }

    @Test
    void aComparisonWithHostileTextsKeepsItsBytes() throws IOException {
        List<ObjectNode> before = new ArrayList<>();
        List<ObjectNode> after = new ArrayList<>();
        for (int i = 0; i < CaseReportTest.HOSTILE.size(); i++) {
            String text = CaseReportTest.HOSTILE.get(i);
            for (List<ObjectNode> run : List.of(before, after)) {
                ObjectNode line = line(text, text + " case", text, run == before ? "passed" : "failed",
                        run == before ? 1.0 : 0.0, run == before ? "was " + text : text + " now");
                line.put("eval", text);
                line.put("reason", text);
                line.put("error", text);
                line.put("input", text);
                line.putArray("tags").add(text);
                line.putArray("trajectory").addObject().put("type", "tool").put("name", text);
                run.add(line);
            }
        }
        before.add(line("sim_small", "gone", "exact_match", "passed", 1.0, "removed since"));
        after.add(line("sim_small", "new", "exact_match", "failed", 0.0, "new since"));
        Path results = ReportFiles.write(dir.resolve("results.jsonl"), after);
        Path previous = ReportFiles.write(dir.resolve("previous.jsonl"), before);

        assertThat(dataDigest(results, Optional.of(previous))).isEqualTo(
                "4561853:8e82242e81d3dd71e098c461babb5bffffb441867dfe776fdf2121b585aa15ca");
    }

    private String dataDigest(Path results, Optional<Path> previous) throws IOException {
        CaseReport.Outcome outcome = CaseReport.write(results, previous, Map.of("triage",
                new CaseReport.EvalClass("com.acme.TriageEvalTest", false)), 0.02, Optional.of(dir.resolve(
                        "report.html")));
        String data = ReportFiles.read(outcome.file().orElseThrow()).data()
                .replaceAll("\"generated\":\"[^\"]*\"", "\"generated\":\"T\"")
                .replace(dir.toAbsolutePath().normalize().toString(), "DIR")
                // the meta's eval class entry is a Map.of, whose order changes from one JVM to the next
                .replace("\"datasets\":false,\"class\":\"com.acme.TriageEvalTest\"",
                        "\"class\":\"com.acme.TriageEvalTest\",\"datasets\":false");
        if (Boolean.getBoolean("arena.bytes.dump")) {
            Files.writeString(Path.of(System.getProperty("java.io.tmpdir"), "report-data-" + previous.isPresent()
                    + ".txt"), data);
        }
        try {
            return data.length() + ":" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(
                    data.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
