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

/**
 * A case's own scorer options, {@code scorer_options}, read the same in all four formats: an object of scorers, each
 * an object of options, landing in {@code EvalCase.scorerOptions()}; anything else fails its row.
 */
class ScorerOptionsFieldTest {

    private static final Map<String, Map<String, Object>> EXPECTED = Map.of(
            "numeric", Map.of("tolerance", 0.5),
            "classification", Map.of("labels", List.of("a", "b")));

    @TempDir
    Path dir;

    @Test
    void jsonLines() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "{\"id\": \"x\", \"input\": \"q\", \"scorer_options\": "
                + "{\"numeric\": {\"tolerance\": 0.5}, \"classification\": {\"labels\": [\"a\", \"b\"]}}}\n");

        assertThat(evalCase(rows.get(0)).scorerOptions()).isEqualTo(EXPECTED);
    }

    @Test
    void json() throws Exception {
        List<DatasetRow> rows = read(dir, "t.json", "[{\"id\": \"x\", \"input\": \"q\", \"scorer_options\": "
                + "{\"numeric\": {\"tolerance\": 0.5}, \"classification\": {\"labels\": [\"a\", \"b\"]}}}]");

        assertThat(evalCase(rows.get(0)).scorerOptions()).isEqualTo(EXPECTED);
    }

    @Test
    void yaml() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yaml", "tests:\n"
                + "  - id: x\n"
                + "    input: q\n"
                + "    scorer_options:\n"
                + "      numeric: {tolerance: 0.5}\n"
                + "      classification:\n"
                + "        labels: [a, b]\n");

        assertThat(evalCase(rows.get(0)).scorerOptions()).isEqualTo(EXPECTED);
    }

    @Test
    void csvColumnsPerOptionAndAJsonColumnTheyWinOver() throws Exception {
        List<DatasetRow> rows = read(dir, "t.csv", "id,input,scorer_options,scorer_options.numeric.tolerance\n"
                + "x,q,\"{\"\"classification\"\": {\"\"labels\"\": [\"\"a\"\", \"\"b\"\"]}, \"\"numeric\"\": "
                + "{\"\"tolerance\"\": 9}}\",0.5\n"
                + "y,q,,\n");

        // CSV cells are text: the scorer's typed getter converts "0.5"
        assertThat(evalCase(rows.get(0)).scorerOptions()).isEqualTo(Map.of(
                "numeric", Map.of("tolerance", "0.5"),
                "classification", Map.of("labels", List.of("a", "b"))));
        assertThat(evalCase(rows.get(1)).scorerOptions()).isEmpty();
    }

    @Test
    void aCsvColumnMustNameScorerAndOption() throws Exception {
        List<DatasetRow> rows = read(dir, "t.csv", "id,input,scorer_options.numeric\nx,q,1\n");

        assertThat(error(rows.get(0))).isEqualTo("t.csv:1: bad header: column 'scorer_options.numeric' must name a "
                + "scorer and an option: scorer_options.<scorer>.<option>");
    }

    @Test
    void anythingButAnObjectOfObjectsFailsTheRow() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "{\"input\": \"q\", \"scorer_options\": [1]}\n"
                + "{\"input\": \"q\", \"scorer_options\": {\"numeric\": 0.5}}\n");

        assertThat(error(rows.get(0))).isEqualTo("t.jsonl:1: scorer_options must be an object of scorers, each an "
                + "object of options ({\"numeric\": {\"tolerance\": 0.5}}), found a list");
        assertThat(error(rows.get(1))).isEqualTo("t.jsonl:2: scorer_options.numeric must be an object of options, "
                + "found a number");
    }
}
