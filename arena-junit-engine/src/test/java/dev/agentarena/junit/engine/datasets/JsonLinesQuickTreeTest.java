package dev.agentarena.junit.engine.datasets;

import static dev.agentarena.junit.engine.datasets.DatasetTesting.error;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.evalCase;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;

import dev.agentarena.junit.engine.json.Json;

/**
 * The one-pass reading of a JSON Lines row ({@link JsonLinesReader#quickTree}) builds the very tree databind builds,
 * and leaves every line it cannot take as it is to the full reading, whose errors and numbers are the reference.
 */
class JsonLinesQuickTreeTest {

    private static final ObjectReader DATABIND = Json.MAPPER.readerFor(JsonNode.class)
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {
        "{}",
        "{\"id\": \"a\", \"input\": \"x\", \"reference\": \"y\", \"output\": \"y\", \"tags\": [\"t\"]}",
        "  {\"input\": \"\", \"reference\": null, \"flag\": true, \"other\": false}  ",
        "{\"input\": {\"a\": [\"b\", {\"c\": null}, []], \"d\": {}}, \"tags\": \"p;q\"}",
        "{\"input\": \"\\u00e9t\\u00e9 \\\"quoted\\\" \\n\\t\\\\ \\u0000 \\ud83d\\ude00\"}",
        "{\"input\": \"été ☃ 😀\"}",
        "{\"a\": {\"x\": \"1\"}, \"b\": {\"x\": \"2\"}}",
    })
    void buildsTheTreeDatabindBuilds(String line) throws Exception {
        JsonNode quick = JsonLinesReader.quickTree(line);

        assertThat(quick).isNotNull().isEqualTo(DATABIND.readTree(line));
        assertThat(quick.toString()).isEqualTo(DATABIND.readTree(line).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"input\": \"x\", \"weight\": 2}",
        "{\"input\": \"x\", \"metadata\": {\"n\": 1.5e3}}",
        "{\"input\": [\"x\", 12345678901234567890]}",
        "{\"input\": \"x\", \"input\": \"y\"}",
        "{\"input\": {\"a\": \"x\", \"a\": \"y\"}}",
        "{\"input\": \"x\"} {\"input\": \"y\"}",
        "{\"input\": \"x\"} garbage",
        "{\"input\": ",
        "{\"input\": \"x\",}",
        "[\"input\"]",
        "\"input\"",
        "null",
        "{'input': 'x'}",
    })
    void leavesToTheFullReadingWhatItCannotTakeAsItIs(String line) {
        assertThat(JsonLinesReader.quickTree(line)).isNull();
    }

    @Test
    void rowsReadEitherWayAreTheSame() throws Exception {
        List<DatasetRow> rows = read(dir, "mixed.jsonl", """
                {"id": "plain", "input": "x", "reference": "y", "tags": ["a", "b", "a"]}
                {"id": "numbers", "input": "x", "weight": 2, "metadata": {"n": 3, "f": 0.5, "big": 12345678901}}
                {"id": "twice", "input": "x", "tags": ["a"], "tags": ["b"]}
                {"id": "bad tag", "input": "x", "tags": ["a", "not valid", "b"]}
                {"id": "again", "input": "x", "tags": ["b", "not valid"]}
                {"id": "glued", "input": "x"} {"id": "y", "input": "y"}
                {"input": "derived", "tags": "a;b|c"}
                """);

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("plain", "numbers", "twice", "bad tag",
                "again", "mixed.jsonl:6", "mixed.jsonl:7");
        assertThat(evalCase(rows.get(0)).tags()).containsExactly("a", "b");
        assertThat(evalCase(rows.get(1)).weight()).isEqualTo(2.0);
        assertThat(evalCase(rows.get(1)).metadata()).containsExactly(java.util.Map.entry("n", 3),
                java.util.Map.entry("f", 0.5), java.util.Map.entry("big", 12345678901L));
        assertThat(error(rows.get(2))).isEqualTo("mixed.jsonl:3: key 'tags' appears twice");
        assertThat(error(rows.get(3))).isEqualTo("mixed.jsonl:4: tag 'not valid' is not a valid JUnit tag "
                + "(no whitespace, ',', '(', ')', '&', '|', '!')");
        assertThat(error(rows.get(4))).isEqualTo("mixed.jsonl:5: tag 'not valid' is not a valid JUnit tag "
                + "(no whitespace, ',', '(', ')', '&', '|', '!')");
        assertThat(error(rows.get(5))).startsWith("mixed.jsonl:6: malformed JSON: ");
        assertThat(evalCase(rows.get(6)).tags()).containsExactly("a", "b", "c");
        assertThat(evalCase(rows.get(6)).reference()).isNull();
        assertThat(evalCase(rows.get(6)).recordedOutput()).isEmpty();
        assertThat(evalCase(rows.get(6)).metadata()).isEmpty();
        assertThat(evalCase(rows.get(6)).evalType()).isEmpty();
    }
}
