package dev.agentarena.junit.engine.datasets;

import static dev.agentarena.junit.engine.datasets.DatasetTesting.error;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.evalCase;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.line;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.EvalCase;

class JsonLinesDatasetTest {

    @TempDir
    Path dir;

    @Test
    void readsEveryField() throws Exception {
        List<DatasetRow> rows = read(dir, "tickets.jsonl", "{\"id\": \"refund\", \"input\": \"I was charged twice\", "
                + "\"reference\": {\"label\": \"billing\"}, \"eval_type\": \"json_match\", \"tags\": [\"priority\", "
                + "\"billing\"], \"weight\": 2.5, \"metadata\": {\"channel\": \"email\", \"n\": 3}, "
                + "\"output\": \"billing\"}\n");

        assertThat(rows).hasSize(1);
        EvalCase evalCase = evalCase(rows.get(0));
        assertThat(evalCase.id()).isEqualTo("refund");
        assertThat(evalCase.input()).isEqualTo("I was charged twice");
        assertThat(evalCase.reference()).isEqualTo(Map.of("label", "billing"));
        assertThat(evalCase.evalType()).contains("json_match");
        assertThat(evalCase.tags()).containsExactly("priority", "billing");
        assertThat(evalCase.weight()).isEqualTo(2.5);
        assertThat(evalCase.metadata()).containsExactly(Map.entry("channel", "email"), Map.entry("n", 3));
        assertThat(evalCase.recordedOutput()).contains("billing");
        assertThat(rows.get(0).location()).contains(new DatasetLocation("tickets.jsonl", dir.resolve("tickets.jsonl")
                .toAbsolutePath().normalize(), 1));
    }

    @Test
    void defaultsWeightToOneAndDerivesMissingIdsFromFileAndLine() throws Exception {
        List<DatasetRow> rows = read(dir, "tickets.jsonl", "\n{\"input\": \"a\"}\n\n{\"id\": 7, \"input\": \"b\"}\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("tickets.jsonl:2", "7");
        assertThat(rows).extracting(DatasetTesting::line).containsExactly(2, 4);
        assertThat(evalCase(rows.get(0)).weight()).isEqualTo(1.0);
        assertThat(evalCase(rows.get(0)).reference()).isNull();
        assertThat(evalCase(rows.get(0)).recordedOutput()).isEmpty();
    }

    @Test
    void aMalformedLineFailsAloneAndReadingGoesOn() throws Exception {
        List<DatasetRow> rows = read(dir, "tickets.jsonl",
                "{\"id\": \"a\", \"input\": \"x\"}\n{\"id\": \"b\", \"input\": \n{\"id\": \"c\", \"input\": \"z\"}\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "tickets.jsonl:2", "c");
        assertThat(error(rows.get(1))).startsWith("tickets.jsonl:2: malformed JSON: ");
        assertThat(line(rows.get(1))).isEqualTo(2);
        assertThat(rows.get(2).error()).isEmpty();
    }

    @Test
    void twoObjectsOnOneLineAreMalformed() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "{\"input\": \"x\"} {\"input\": \"y\"}\n");

        assertThat(error(rows.get(0))).startsWith("t.jsonl:1: malformed JSON: ");
    }

    @Test
    void aLineThatIsNotAnObjectFails() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "[1, 2]\n");

        assertThat(error(rows.get(0))).isEqualTo("t.jsonl:1: expected an object with fields id, input, reference, "
                + "eval_type, tags, weight, metadata, output, scorer_options, tool_results, expected_trajectory, turns, "
                + "simulated_user, relevant, reference_passages, trajectory, retrieved, found a list");
    }

    @Test
    void aRowWithoutInputFails() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "{\"id\": \"a\", \"reference\": \"x\"}\n"
                + "{\"id\": \"b\", \"input\": null}\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "b");
        assertThat(error(rows.get(0))).isEqualTo("t.jsonl:1: no input: every case needs an 'input' field");
        assertThat(error(rows.get(1))).isEqualTo("t.jsonl:2: no input: every case needs an 'input' field");
    }

    @Test
    void anUnknownFieldFailsNamingTheKnownOnes() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "{\"id\": \"a\", \"input\": \"x\", \"refrence\": \"y\"}\n");

        assertThat(error(rows.get(0))).isEqualTo("t.jsonl:1: unknown field 'refrence' (did you mean 'reference'?); "
                + "known fields: id, input, reference, eval_type, tags, weight, metadata, output, scorer_options, "
                + "tool_results, expected_trajectory, turns, simulated_user, relevant, reference_passages, trajectory, "
                + "retrieved");
    }

    @Test
    void aDuplicateIdFailsTheLaterRowUnderAFreshId() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "{\"id\": \"x\", \"input\": \"1\"}\n"
                + "{\"id\": \"y\", \"input\": \"2\"}\n{\"id\": \"x\", \"input\": \"3\"}\n{\"id\": \"x\", \"input\": \"4\"}\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("x", "y", "x#2", "x#3");
        assertThat(rows.get(0).error()).isEmpty();
        assertThat(error(rows.get(2))).isEqualTo("t.jsonl:3: duplicate id 'x' (first at line 1)");
        assertThat(error(rows.get(3))).isEqualTo("t.jsonl:4: duplicate id 'x' (first at line 1)");
        assertThat(line(rows.get(3))).isEqualTo(4);
    }

    @Test
    void aNegativeOrNonNumericWeightFails() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "{\"id\": \"a\", \"input\": \"x\", \"weight\": -1}\n"
                + "{\"id\": \"b\", \"input\": \"x\", \"weight\": \"heavy\"}\n{\"id\": \"c\", \"input\": \"x\", \"weight\": 0}\n");

        assertThat(error(rows.get(0))).isEqualTo("t.jsonl:1: weight must be a number >= 0, found -1");
        assertThat(error(rows.get(1))).isEqualTo("t.jsonl:2: weight must be a number >= 0, found 'heavy'");
        assertThat(evalCase(rows.get(2)).weight()).isZero();
    }

    @Test
    void reportsEveryProblemOfARowAtOnce() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "{\"id\": \"a\", \"tags\": \"bad tag\", \"metadata\": [1], "
                + "\"eval_type\": 3}\n");

        assertThat(error(rows.get(0))).contains("no input", "tag 'bad tag' is not a valid JUnit tag",
                "metadata must be an object, found a list", "eval_type must be a scorer name, found a number");
    }

    @Test
    void tagsMayBeOneStringSeparatedBySemicolonsOrBars() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "{\"input\": \"x\", \"tags\": \"a; b|c\"}\n");

        assertThat(evalCase(rows.get(0)).tags()).containsExactly("a", "b", "c");
    }

    @Test
    void structuredInputsAndOutputsStayStructured() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "{\"input\": {\"q\": \"hi\"}, \"reference\": [1, 2.5], "
                + "\"output\": {\"a\": true}}\n");

        EvalCase evalCase = evalCase(rows.get(0));
        assertThat(evalCase.input()).isEqualTo(Map.of("q", "hi"));
        assertThat(evalCase.reference()).isEqualTo(List.of(1, 2.5));
        assertThat(evalCase.recordedOutput()).contains(Map.of("a", true));
    }

    @Test
    void skipsAByteOrderMark() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "\uFEFF{\"id\": \"a\", \"input\": \"x\"}\n");

        assertThat(evalCase(rows.get(0)).id()).isEqualTo("a");
    }
}
