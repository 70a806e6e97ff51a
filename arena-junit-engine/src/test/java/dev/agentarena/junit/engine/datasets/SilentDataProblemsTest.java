package dev.agentarena.junit.engine.datasets;

import static dev.agentarena.junit.engine.datasets.DatasetTesting.error;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.evalCase;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.config.ConfigurationException;

/**
 * Data that Jackson or the JDK would read without a word, each turned into an error naming file and line, or into a
 * documented reading: empty datasets, YAML aliases, keys given twice, several YAML documents, bytes that are not
 * UTF-8, a directory where a file was expected.
 */
class SilentDataProblemsTest {

    @TempDir
    Path dir;

    @Test
    void anEmptyJsonLinesFileIsOneFailedRowNamedAfterTheFile() throws Exception {
        assertThat(read(dir, "t.jsonl", "")).singleElement().satisfies(row -> {
            assertThat(row.caseId()).isEqualTo("t.jsonl");
            assertThat(row.location().orElseThrow().line()).isEqualTo(1);
            assertThat(error(row)).isEqualTo("t.jsonl:1: no cases: the file is empty; a dataset needs at least one"
                    + " case");
        });
        assertThat(read(dir, "t.jsonl", "\n   \n\n")).extracting(DatasetTesting::error).containsExactly(
                "t.jsonl:1: no cases: the file holds only blank lines; a dataset needs at least one case");
    }

    @ParameterizedTest
    @ValueSource(strings = {"json", "yaml", "csv"})
    void aFileOfBlankLinesIsAnEmptyDatasetInEveryFormat(String format) throws Exception {
        assertThat(read(dir, "t." + format, "\n  \n\n")).singleElement().satisfies(row -> {
            assertThat(row.caseId()).isEqualTo("t." + format);
            assertThat(error(row)).startsWith("t." + format + ":1: no cases: ");
        });
    }

    @Test
    void aDatasetMethodWithoutCasesIsOneFailedRowNamedAfterTheMethod() {
        List<DatasetRow> rows = new ArrayList<>();
        try (DatasetStream stream = DatasetRows.fromMethodResult(Stream.<EvalCase>empty(),
                "dataset method SupportEvalTest.cases()")) {
            stream.forEachRemaining(rows::add);
        }

        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row.caseId()).isEqualTo("SupportEvalTest.cases()");
            assertThat(error(row)).isEqualTo("dataset method SupportEvalTest.cases() returned no cases; a dataset"
                    + " needs at least one case");
        });
    }

    @Test
    void aYamlAliasFailsItsRowNamingTheAliasAndTheOtherRowsRead() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yaml", "tests:\n"
                + "  - id: a\n"
                + "    input: x\n"
                + "    reference: &answer billing\n"
                + "  - id: b\n"
                + "    input: y\n"
                + "    reference: *answer\n"
                + "  - id: c\n"
                + "    input: z\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "b", "c");
        assertThat(evalCase(rows.get(0)).reference()).isEqualTo("billing");
        assertThat(error(rows.get(1))).isEqualTo("t.yaml:5: YAML alias '*answer' (line 7) is not supported: write the"
                + " value out (datasets are read row by row, so an alias cannot reach its anchor)");
        assertThat(rows.get(2).error()).isEmpty();
    }

    @Test
    void aYamlMergeKeyOrAWholeAliasedRowFailsToo() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yaml", "- &base {id: a, input: x}\n"
                + "- *base\n"
                + "- <<: *base\n"
                + "  id: c\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "t.yaml:2", "c");
        assertThat(error(rows.get(1))).startsWith("t.yaml:2: YAML alias '*base' is not supported");
        assertThat(error(rows.get(2))).startsWith("t.yaml:3: YAML alias '*base' is not supported")
                .contains("; YAML merge key '<<' is not supported: write the fields out");
    }

    @Test
    void anAliasInPlaceOfTheTestsListFailsTheDocument() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yaml", "all: &all\n  - {id: a, input: x}\ntests: *all\n");

        assertThat(rows).extracting(DatasetTesting::error).containsExactly(
                "t.yaml:3: YAML alias '*all' is not supported: write the cases out");
    }

    @Test
    void aKeyGivenTwiceInAJsonLineFailsThatRowNamingTheKey() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", ""
                + "{\"id\": \"a\", \"input\": \"x\", \"reference\": \"one\", \"reference\": \"two\"}\n"
                + "{\"id\": \"b\", \"input\": \"y\", \"metadata\": {\"channel\": \"web\", \"channel\": \"mail\"}}\n"
                + "{\"id\": \"c\", \"input\": \"z\", \"reference\": [{\"k\": 1}, {\"k\": 2, \"k\": 3}]}\n"
                + "{\"id\": \"d\", \"input\": \"w\", \"reference\": {\"k\": {\"k\": 1}}}\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "b", "c", "d");
        assertThat(error(rows.get(0))).isEqualTo("t.jsonl:1: key 'reference' appears twice");
        assertThat(error(rows.get(1))).isEqualTo("t.jsonl:2: key 'metadata.channel' appears twice");
        assertThat(error(rows.get(2))).isEqualTo("t.jsonl:3: key 'reference[1].k' appears twice");
        assertThat(rows.get(3).error()).as("the same key in different objects").isEmpty();
    }

    @Test
    void aKeyGivenTwiceInAJsonFileFailsThatElementAloneAndReadingGoesOn() throws Exception {
        List<DatasetRow> rows = read(dir, "t.json", "[\n"
                + "  {\"id\": \"a\", \"input\": \"x\", \"id\": \"b\"},\n"
                + "  {\"id\": \"c\", \"input\": \"y\"}\n"
                + "]\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("b", "c");
        assertThat(error(rows.get(0))).isEqualTo("t.json:2: key 'id' appears twice");
        assertThat(rows.get(1).error()).isEmpty();
    }

    @Test
    void aKeyGivenTwiceInAYamlRowNamesTheLineOfTheRepeat() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yaml", "- id: a\n"
                + "  input: x\n"
                + "  metadata:\n"
                + "    channel: web\n"
                + "    channel: mail\n"
                + "  input: y\n"
                + "- id: b\n"
                + "  input: z\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "b");
        assertThat(error(rows.get(0))).isEqualTo("t.yaml:1: key 'metadata.channel' appears twice (line 5); "
                + "key 'input' appears twice (line 6)");
        assertThat(rows.get(1).error()).isEmpty();
    }

    @Test
    void aColumnGivenTwiceInACsvHeaderFailsTheFileOnce() throws Exception {
        List<DatasetRow> rows = read(dir, "t.csv", "id,input,reference, input\na,x,y,z\n");

        assertThat(rows).extracting(DatasetTesting::error)
                .containsExactly("t.csv:1: bad header: column 'input' appears twice (columns 2 and 4)");
    }

    @Test
    void everyDocumentOfAMultiDocumentYamlFileIsRead() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yaml", "- {id: a, input: x}\n"
                + "---\n"
                + "- {id: b, input: y}\n"
                + "---\n"
                + "name: more\n"
                + "tests:\n"
                + "  - {id: c, input: z}\n"
                + "after: 1\n"
                + "---\n"
                + "---\n"
                + "- {id: a, input: again}\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "b", "c", "a#2");
        assertThat(rows).extracting(DatasetTesting::line).containsExactly(1, 3, 7, 11);
        assertThat(error(rows.get(3))).isEqualTo("t.yaml:11: duplicate id 'a' (first at line 1)");
    }

    @Test
    void aYamlDocumentOfTheWrongShapeFailsAloneAndTheNextDocumentIsRead() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yaml", "- {id: a, input: x}\n"
                + "---\n"
                + "just text\n"
                + "---\n"
                + "tests:\n"
                + "  - {id: b, input: y}\n"
                + "tests:\n"
                + "  - {id: c, input: z}\n"
                + "---\n"
                + "- {id: d, input: w}\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "t.yaml:3", "b", "t.yaml:7", "d");
        assertThat(error(rows.get(1))).isEqualTo("t.yaml:3: a YAML dataset is a list of cases, or an object with a "
                + "'tests' list");
        assertThat(error(rows.get(3))).isEqualTo("t.yaml:7: key 'tests' appears twice; its second list was not read:"
                + " put every case in one list");
    }

    @Test
    void aSecondDocumentInAJsonFileIsAnError() throws Exception {
        List<DatasetRow> rows = read(dir, "t.json", "[{\"id\": \"a\", \"input\": \"x\"}]\n"
                + "[{\"id\": \"b\", \"input\": \"y\"}]\n");

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "t.json:2");
        assertThat(error(rows.get(1))).startsWith("t.json:2: more JSON after the end of the dataset")
                .endsWith("the rest of the file was not read");
    }

    @Test
    void aJsonLineThatIsNotUtf8FailsAloneNamingLineAndColumn() throws Exception {
        byte[] content = bytes("{\"id\": \"a\", \"input\": \"x\"}\n",
                "{\"id\": \"b\", \"input\": \"caf", new byte[] {(byte) 0xE9}, "\"}\n",
                "{\"id\": \"c\", \"input\": \"z\"}\n");

        List<DatasetRow> rows = readBytes("t.jsonl", content);

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "t.jsonl:2", "c");
        assertThat(error(rows.get(1))).isEqualTo("t.jsonl:2: not valid UTF-8 (byte 0xE9); save the file as UTF-8"
                + " (column 26)");
        assertThat(evalCase(rows.get(2)).input()).isEqualTo("z");
    }

    @ParameterizedTest
    @ValueSource(strings = {"json", "yaml", "csv"})
    void bytesThatAreNotUtf8EndTheFileAtTheirLineAfterEveryRowBeforeThem(String format) throws Exception {
        // far enough into the file that parsers have buffered many lines before the bad bytes
        int good = 600;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(header(format).getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < good; i++) {
            out.write(row(format, "r" + i, "plain text " + i, i == 0).getBytes(StandardCharsets.UTF_8));
        }
        out.write(row(format, "bad", "caf", false).getBytes(StandardCharsets.UTF_8));
        int badLine = lines(out.toByteArray());
        byte[] invalid = {(byte) 0xC3, (byte) 0x28};
        byte[] withBadByte = insertBeforeLastQuoteOrEnd(out.toByteArray(), invalid, format);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        file.write(withBadByte);
        file.write(row(format, "after", "never read", false).getBytes(StandardCharsets.UTF_8));
        file.write(footer(format).getBytes(StandardCharsets.UTF_8));

        List<DatasetRow> rows = readBytes("t." + format, file.toByteArray());

        assertThat(rows).hasSize(good + 1);
        assertThat(rows.subList(0, good)).allSatisfy(row -> assertThat(row.error()).isEmpty());
        assertThat(error(rows.get(good))).isEqualTo("t." + format + ":" + badLine + ": not valid UTF-8 (byte 0xC3);"
                + " save the file as UTF-8; the rest of the file was not read");
    }

    @Test
    void aByteOrderMarkIsStillSkippedInEveryFormat() throws Exception {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        assertThat(readBytes("t.csv", bytes(bom, "id,input\na,x\n"))).extracting(DatasetRow::caseId)
                .containsExactly("a");
        assertThat(readBytes("t.yaml", bytes(bom, "- {id: a, input: x}\n"))).extracting(DatasetRow::caseId)
                .containsExactly("a");
        assertThat(readBytes("t.json", bytes(bom, "[{\"id\": \"a\", \"input\": \"x\"}]"))).extracting(
                DatasetRow::caseId).containsExactly("a");
        assertThat(readBytes("t.jsonl", bytes(bom, "{\"id\": \"a\", \"input\": \"\u00e9\"}\n")))
                .extracting(row -> evalCase(row).input()).containsExactly("\u00e9");
    }

    @Test
    void aDirectoryNamedLikeADatasetIsReportedAsADirectory() throws Exception {
        Files.createDirectories(dir.resolve("cases.jsonl"));

        assertThatThrownBy(() -> DatasetFiles.locate("cases.jsonl", null, dir))
                .isInstanceOf(ConfigurationException.class).isNotInstanceOf(DatasetNotFoundException.class)
                .hasMessageStartingWith("Dataset file 'cases.jsonl' is a directory, not a file: "
                        + dir.resolve("cases.jsonl") + ". Name a file inside it. Looked in: ");
    }

    @Test
    void aFileElsewhereWinsOverADirectoryOfTheSameName() throws Exception {
        Files.createDirectories(dir.resolve("arena-datasets-test").resolve("shadowed.jsonl"));

        // the classpath holds a file of that name: a directory under the project root does not hide it
        assertThat(DatasetFiles.locate("arena-datasets-test/shadowed.jsonl", null, dir).description())
                .isEqualTo("classpath resource arena-datasets-test/shadowed.jsonl");
    }

    private List<DatasetRow> readBytes(String name, byte[] content) throws IOException {
        Files.write(dir.resolve(name), content);
        List<DatasetRow> rows = new ArrayList<>();
        try (DatasetStream stream = DatasetFiles.open(name, null, dir)) {
            stream.forEachRemaining(rows::add);
        }
        return rows;
    }

    private static byte[] bytes(Object... parts) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            out.write(part instanceof byte[] ? (byte[]) part : ((String) part).getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    private static String header(String format) {
        return Map.of("json", "[\n", "yaml", "tests:\n", "csv", "id,input\n").get(format);
    }

    private static String footer(String format) {
        return format.equals("json") ? "]\n" : "";
    }

    private static String row(String format, String id, String input, boolean first) {
        switch (format) {
            case "json":
                return (first ? "" : ",") + "{\"id\": \"" + id + "\", \"input\": \"" + input + "\"}\n";
            case "yaml":
                return "  - id: " + id + "\n    input: \"" + input + "\"\n";
            default:
                return id + ",\"" + input + "\"\n";
        }
    }

    /** Puts the bytes just before the closing quote of the last row. */
    private static byte[] insertBeforeLastQuoteOrEnd(byte[] content, byte[] insert, String format) {
        int quote = content.length - 1;
        while (content[quote] != '"') {
            quote--;
        }
        byte[] result = new byte[content.length + insert.length];
        System.arraycopy(content, 0, result, 0, quote);
        System.arraycopy(insert, 0, result, quote, insert.length);
        System.arraycopy(content, quote, result, quote + insert.length, content.length - quote);
        return result;
    }

    private static int lines(byte[] content) {
        int count = 0;
        for (byte b : content) {
            if (b == '\n') {
                count++;
            }
        }
        return count;
    }
}
