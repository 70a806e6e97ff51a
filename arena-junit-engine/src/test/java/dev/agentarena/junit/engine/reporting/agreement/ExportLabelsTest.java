package dev.agentarena.junit.engine.reporting.agreement;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.labels.OutputDigest;

/** The command that makes a labelling sheet from a results file. */
class ExportLabelsTest {

    @TempDir
    Path directory;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return ExportLabels.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void oneRowPerOutputWithEachScorersColumns() throws IOException {
        Path results = Files.writeString(directory.resolve("results.jsonl"), String.join("\n",
                "{\"eval\":\"qa\",\"model\":\"m\",\"dataset\":\"d\",\"case_id\":\"france\",\"scorer\":\"llm_judge\","
                        + "\"repeat\":0,\"score\":1.0,\"passed\":true,\"reason\":\"judge: pass\",\"output\":\"Paris\","
                        + "\"input\":\"Capital?\",\"reference\":\"Paris\"}",
                "{\"eval\":\"qa\",\"model\":\"m\",\"dataset\":\"d\",\"case_id\":\"france\",\"scorer\":\"manual\","
                        + "\"repeat\":0,\"score\":null,\"passed\":null,\"reason\":\"collected\",\"output\":\"Paris\"}",
                "{\"eval\":\"other\",\"model\":\"m\",\"dataset\":\"d\",\"case_id\":\"x\",\"scorer\":\"manual\","
                        + "\"repeat\":0,\"score\":null,\"passed\":null,\"reason\":\"collected\",\"output\":\"x\"}",
                ""));

        assertThat(run(results.toString(), "--format", "jsonl", "--eval", "qa")).isEqualTo(ExportLabels.WRITTEN);

        String sheet = Files.readString(directory.resolve("labels-to-fill.jsonl"));
        assertThat(sheet.lines()).hasSize(1);
        assertThat(sheet).contains("\"case\":\"france\"", "\"input\":\"Capital?\"", "\"reference\":\"Paris\"",
                "\"output_digest\":\"" + OutputDigest.of("Paris") + "\"", "\"llm_judge.verdict\":\"pass\"",
                "\"manual.verdict\":null", "\"human_verdict\":null");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("labelling sheet of 1 output(s)");
    }

    @Test
    void aBrokenLineIsNamedByFileAndLine() throws IOException {
        Path results = Files.writeString(directory.resolve("results.jsonl"), "{\"eval\":\"qa\"}\n{oops\n");

        assertThat(run(results.toString())).isEqualTo(ExportLabels.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("results.jsonl:2: not a results line");
        assertThat(run(directory.resolve("missing.jsonl").toString())).isEqualTo(ExportLabels.FAILED);
        assertThat(run("--format", "xml")).isEqualTo(ExportLabels.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown format 'xml': csv or jsonl");
    }
}
