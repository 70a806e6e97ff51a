package dev.agentarena.junit.engine.datasets;

import static dev.agentarena.junit.engine.datasets.DatasetTesting.error;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.evalCase;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.EvalCase;

class CsvDatasetTest {

    @TempDir
    Path dir;

    @Test
    void mapsCellsToFields() throws Exception {
        List<DatasetRow> rows = read(dir, "t.csv", "id,input,reference,eval_type,tags,weight,metadata,metadata.channel,output\n"
                + "refund,I was charged twice,billing,classification,priority;billing|vip,2,\"{\"\"n\"\": 1}\",email,billing\n"
                + "json,\"{\"\"q\"\": \"\"hi\"\"}\",\"[1, 2]\",,,,,,\n"
                + "text,[draft] reply,1200,,,,,,\n");

        EvalCase refund = evalCase(rows.get(0));
        assertThat(refund.input()).isEqualTo("I was charged twice");
        assertThat(refund.reference()).isEqualTo("billing");
        assertThat(refund.evalType()).contains("classification");
        assertThat(refund.tags()).containsExactly("priority", "billing", "vip");
        assertThat(refund.weight()).isEqualTo(2.0);
        assertThat(refund.metadata()).containsExactly(Map.entry("n", 1), Map.entry("channel", "email"));
        assertThat(refund.recordedOutput()).contains("billing");

        EvalCase json = evalCase(rows.get(1));
        assertThat(json.input()).isEqualTo(Map.of("q", "hi"));
        assertThat(json.reference()).isEqualTo(List.of(1, 2));
        assertThat(json.weight()).isEqualTo(1.0);
        assertThat(json.tags()).isEmpty();
        assertThat(json.evalType()).isEmpty();
        assertThat(json.recordedOutput()).isEmpty();

        EvalCase text = evalCase(rows.get(2));
        assertThat(text.input()).isEqualTo("[draft] reply");
        assertThat(text.reference()).isEqualTo("1200");
    }

    @Test
    void linesFollowQuotedMultiLineCellsAndMissingIdsComeFromTheLine() throws Exception {
        List<DatasetRow> rows = read(dir, "t.csv", "input,reference\n"
                + "\"first\nsecond\",a\n"
                + "\n"
                + "third,b\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("t.csv:2", "t.csv:5");
        assertThat(evalCase(rows.get(0)).input()).isEqualTo("first\nsecond");
    }

    @Test
    void aBadRecordFailsAloneAndReadingGoesOn() throws Exception {
        List<DatasetRow> rows = read(dir, "t.csv", "id,input,weight\n"
                + "a,x,1\n"
                + "b,too,1,many,cells\n"
                + "c,x\n"
                + "d,x,heavy\n"
                + "e,,1\n"
                + "f,x,-2\n"
                + "a,again,1\n"
                + "g,x,1\n");

        assertThat(rows).extracting(DatasetRow::caseId)
                .containsExactly("a", "t.csv:3", "t.csv:4", "d", "e", "f", "a#2", "g");
        assertThat(error(rows.get(1))).startsWith("t.csv:3: bad CSV record: Too many entries");
        assertThat(error(rows.get(2))).startsWith("t.csv:4: bad CSV record: Not enough column values");
        assertThat(error(rows.get(3))).isEqualTo("t.csv:5: weight must be a number >= 0, found 'heavy'");
        assertThat(error(rows.get(4))).isEqualTo("t.csv:6: no input: every case needs an 'input' field");
        assertThat(error(rows.get(5))).isEqualTo("t.csv:7: weight must be a number >= 0, found -2.0");
        assertThat(error(rows.get(6))).isEqualTo("t.csv:8: duplicate id 'a' (first at line 2)");
        assertThat(rows.get(7).error()).isEmpty();
    }

    @Test
    void anUnknownColumnFailsTheFileOnce() throws Exception {
        List<DatasetRow> rows = read(dir, "t.csv", "id,input,refrence\na,x,y\nb,x,y\n");

        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).caseId()).isEqualTo("t.csv:1");
        assertThat(error(rows.get(0))).isEqualTo("t.csv:1: bad header: unknown column 'refrence' (did you mean "
                + "'reference'?); known columns: id, input, reference, eval_type, tags, weight, metadata, output, "
                + "scorer_options, tool_results, expected_trajectory, turns, simulated_user, relevant, reference_passages, "
                + "trajectory, retrieved, or metadata.<key> for a metadata entry, "
                + "or scorer_options.<scorer>.<option> for a scorer option");
    }

    @Test
    void anUnterminatedQuoteFailsTheRestOfTheFile() throws Exception {
        List<DatasetRow> rows = read(dir, "t.csv", "id,input\na,x\nb,\"open\nc,x\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "t.csv:3");
        assertThat(error(rows.get(1))).startsWith("t.csv:3: bad CSV record: Missing closing quote");
    }

    @Test
    void aHeaderAloneOrAnEmptyFileIsOneFailedRowNamedAfterTheFile() throws Exception {
        assertThat(read(dir, "t.csv", "id,input\n")).singleElement().satisfies(row -> {
            assertThat(row.caseId()).isEqualTo("t.csv");
            assertThat(error(row)).isEqualTo("t.csv:1: no cases: the file has a header row and no records; a dataset"
                    + " needs at least one case");
        });
        assertThat(read(dir, "t.csv", "")).singleElement().satisfies(row -> assertThat(error(row))
                .isEqualTo("t.csv:1: no cases: the file is empty; a dataset needs at least one case"));
    }
}
