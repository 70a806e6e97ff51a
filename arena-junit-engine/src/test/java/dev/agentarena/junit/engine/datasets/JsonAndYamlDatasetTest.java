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

class JsonAndYamlDatasetTest {

    @TempDir
    Path dir;

    @Test
    void readsAJsonArrayWithTheLineWhereEachElementStarts() throws Exception {
        List<DatasetRow> rows = read(dir, "t.json", "[\n"
                + "  {\"id\": \"a\", \"input\": \"x\", \"reference\": 1},\n"
                + "  {\n"
                + "    \"id\": \"b\",\n"
                + "    \"input\": \"y\",\n"
                + "    \"tags\": [\"t\"]\n"
                + "  },\n"
                + "  {\"input\": \"z\"}\n"
                + "]\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "b", "t.json:8");
        assertThat(rows).extracting(DatasetTesting::line).containsExactly(2, 3, 8);
        assertThat(evalCase(rows.get(0)).reference()).isEqualTo(1);
    }

    @Test
    void readsTheTestsListOfAJsonObjectIgnoringItsOtherKeys() throws Exception {
        List<DatasetRow> rows = read(dir, "t.json", "{\"name\": \"support\", \"scorers\": {\"default\": \"x\"},\n"
                + " \"tests\": [{\"id\": \"a\", \"input\": \"x\"}], \"after\": 1}");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a");
    }

    @Test
    void aJsonObjectWithoutTestsFailsOnce() throws Exception {
        List<DatasetRow> rows = read(dir, "t.json", "{\"cases\": []}");

        assertThat(rows).hasSize(1);
        assertThat(error(rows.get(0))).startsWith("t.json:1: no 'tests' list");
    }

    @Test
    void aBadElementFailsAloneButASyntaxErrorEndsTheFileWithOneRow() throws Exception {
        List<DatasetRow> rows = read(dir, "t.json", "[\n"
                + "  {\"id\": \"a\", \"input\": \"x\"},\n"
                + "  \"just text\",\n"
                + "  {\"id\": \"c\"},\n"
                + "  {\"id\": \"d\", \"input\": \"x\",,},\n"
                + "  {\"id\": \"e\", \"input\": \"x\"}\n"
                + "]\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "t.json:3", "c", "t.json:5");
        assertThat(error(rows.get(1))).endsWith("found a string");
        assertThat(error(rows.get(2))).isEqualTo("t.json:4: no input: every case needs an 'input' field");
        assertThat(error(rows.get(3))).startsWith("t.json:5: malformed JSON: ")
                .endsWith("; the rest of the file was not read");
    }

    @Test
    void anEmptyFileOrListIsOneFailedRowNamedAfterTheFile() throws Exception {
        assertThat(read(dir, "t.json", "")).extracting(DatasetTesting::error)
                .containsExactly("t.json:1: no cases: the file is empty; a dataset needs at least one case");
        assertThat(read(dir, "t.json", "[]")).extracting(DatasetTesting::error)
                .containsExactly("t.json:1: no cases: the list of cases is empty; a dataset needs at least one case");
        assertThat(read(dir, "t.yaml", "")).extracting(DatasetRow::caseId).containsExactly("t.yaml");
        assertThat(read(dir, "t.yaml", "# nothing yet\n")).extracting(DatasetTesting::error)
                .containsExactly("t.yaml:1: no cases: the file is empty; a dataset needs at least one case");
        assertThat(read(dir, "t.yaml", "tests:\n")).extracting(DatasetTesting::error)
                .containsExactly("t.yaml:1: no cases: 'tests' is empty; a dataset needs at least one case");
        assertThat(read(dir, "t.yaml", "tests: []\n")).extracting(DatasetTesting::error)
                .containsExactly("t.yaml:1: no cases: the 'tests' list is empty; a dataset needs at least one case");
    }

    @Test
    void readsTheYamlTestsBlockWithTheFirstLineOfEachEntry() throws Exception {
        List<DatasetRow> rows = read(dir, "support.yaml", "name: support\n"
                + "scorers:\n"
                + "  default: classification\n"
                + "tests:\n"
                + "  - id: refund_request\n"
                + "    input: \"I was charged twice\"\n"
                + "    reference: billing\n"
                + "    eval_type: tone\n"
                + "\n"
                + "  - id: long_one\n"
                + "    input: |\n"
                + "      first line\n"
                + "      second line\n"
                + "    reference: {amount: 1200, currency: USD}\n"
                + "    tags: [priority]\n"
                + "    weight: 2\n"
                + "  - input: no id here\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("refund_request", "long_one",
                "support.yaml:17");
        assertThat(rows).extracting(DatasetTesting::line).containsExactly(5, 10, 17);
        assertThat(evalCase(rows.get(0)).evalType()).contains("tone");
        assertThat(evalCase(rows.get(1)).input()).isEqualTo("first line\nsecond line\n");
        assertThat(evalCase(rows.get(1)).reference()).isEqualTo(Map.of("amount", 1200, "currency", "USD"));
        assertThat(evalCase(rows.get(1)).weight()).isEqualTo(2.0);
    }

    @Test
    void readsAPlainYamlList() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yml", "- id: a\n  input: x\n- id: b\n  input: y\n  output: 42\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "b");
        assertThat(evalCase(rows.get(1)).recordedOutput()).contains(42);
    }

    @Test
    void aBadYamlEntryFailsAloneAndABrokenOneEndsTheFile() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yaml", "tests:\n"
                + "  - id: a\n"
                + "    input: x\n"
                + "    weight: lots\n"
                + "  -\n"
                + "  - id: b\n"
                + "    input: y\n"
                + "  - id: c\n"
                + "    input: [unclosed\n"
                + "  - id: d\n"
                + "    input: z\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "t.yaml:5", "b", "t.yaml:10");
        assertThat(error(rows.get(0))).isEqualTo("t.yaml:2: weight must be a number >= 0, found 'lots'");
        assertThat(error(rows.get(1))).endsWith("found an empty entry");
        assertThat(rows.get(2).error()).isEmpty();
        assertThat(error(rows.get(3))).startsWith("t.yaml:10: malformed YAML: ")
                .endsWith("; the rest of the file was not read");
    }

    @Test
    void aYamlScalarIsNotADataset() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yaml", "just text\n");

        assertThat(error(rows.get(0))).isEqualTo("t.yaml:1: a YAML dataset is a list of cases, or an object with a "
                + "'tests' list");
    }

    @Test
    void duplicateIdsAreCaughtInYamlToo() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yaml", "- {id: a, input: x}\n- {id: a, input: y}\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "a#2");
        assertThat(error(rows.get(1))).isEqualTo("t.yaml:2: duplicate id 'a' (first at line 1)");
    }
}
