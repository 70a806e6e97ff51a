package dev.agentarena.junit.engine.datasets;

import static dev.agentarena.junit.engine.datasets.DatasetTesting.error;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.evalCase;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.core.Version;

import dev.agentarena.junit.EvalCase;

/**
 * The first reading of a JSON Lines row ({@link KnownFields}, streamed into a case's fields) gives every row exactly as
 * the readings after it give it: the same case, tags in the same order, the same error with the same line, rows in the
 * same order. Each test reads the same bytes with the first reading on and off and compares; the lines it must take
 * are checked to be taken, so the comparison is not between two runs of the other readings.
 */
class JsonLinesKnownFieldsTest {

    private static final DatasetSource SOURCE = new DatasetSource("rows.jsonl", URI.create("file:/rows.jsonl"), null,
            "test file rows.jsonl");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"id\": \"case-1\", \"input\": \"Classify ticket 1\", \"reference\": \"billing\", \"output\": \"billing\","
                + " \"tags\": [\"billing\"]}",
        "{}",
        "{ }",
        " \t{\"input\":\"x\"}\t ",
        "{\"input\": \"x\"}\r",
        "{\"input\": \"x\"}\r\r",
        "{\"input\": \"\", \"reference\": null, \"output\": true, \"eval_type\": false}",
        "{\"input\": [], \"reference\": [\"a\", null, true, false, \"\"]}",
        "{\"input\": \"x\", \"tags\": \"p;q|r; ;p\"}",
        "{\"input\": \"x\", \"tags\": [\"b\", \"a\", \"b\", \" c \", \"\"]}",
        "{\"input\": \"x\", \"tags\": [\"bad tag\", \"ok\", \"a(b)\"]}",
        "{\"input\": \"x\", \"tags\": [true, \"t\"]}",
        "{\"input\": \"x\", \"tags\": \"\"}",
        "{\"input\": \"x\", \"tags\": true}",
        "{\"input\": \"x\", \"tags\": null}",
        "{\"input\": \"x\", \"id\": \"  \"}",
        "{\"input\": \"x\", \"id\": \" padded \"}",
        "{\"input\": \"x\", \"id\": true}",
        "{\"input\": \"x\", \"eval_type\": \" exact_match \"}",
        "{\"input\": \"x\", \"weight\": \"heavy\"}",
        "{\"input\": \"x\", \"metadata\": \"m\", \"scorer_options\": \"s\"}",
        "{\"input\": \"x\", \"turns\": [\"a\", \"b\"], \"simulated_user\": \"u\"}",
        "{\"input\": \"x\", \"turns\": [\"a\", \"b\"]}",
        "{\"input\": \"x\", \"tool_results\": \"t\", \"expected_trajectory\": [\"search\"]}",
        "{\"reference\": \"no input\"}",
        "{\"input\": null}",
        "{\"input\": \"\\u00e9t\\u00e9 \\\"quoted\\\" \\/ \\b\\f\\n\\r\\t\\\\ \\u0000 \\u001F \\uABcd\"}",
        "{\"input\": \"pair \\ud83d\\ude00, lone high \\ud83d, lone low \\ude00, reversed \\ude00\\ud83d\"}",
        "{\"input\": \"été ☃ 😀 \u0080 \u07ff \u0800 \uffff \ud800\udc00 \udbff\udfff\"}",
        "{\"input\": \"\u2028 \u00a0 \u007f\", \"reference\": \"\ufeff\"}",
        "{\"input\": \"x\", \"output\": \"x\", \"id\": \"last\"}",
        "{\"input\": \"x\", \"weight\": 2}",
        "{\"input\": \"x\", \"weight\": -0.5e-3}",
        "{\"input\": 1}",
        "{\"input\": -0}",
        "{\"input\": 1.0}",
        "{\"input\": 1E400}",
        "{\"input\": 12345678901234567890123}",
        "{\"id\": 7, \"input\": \"x\"}",
        "{\"input\": \"x\", \"metadata\": {\"channel\": \"mail\", \"n\": 2}}",
        "{\"input\": \"x\", \"scorer_options\": {\"numeric\": {\"tolerance\": 0.5}}}",
        "{\"input\": [[\"nested\"], {\"k\": [1, null]}]}",
        "{\"in\\u0070ut\": \"x\"}",
    })
    void takesAnObjectOfKnownFieldsAndReadsItAsTheOtherReadingsDo(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        assertThat(new KnownFields().read(bytes, 0, bytes.length)).as("taken by the first reading").isNotNull();
        assertThat(new KnownFields(true).read(bytes, 0, bytes.length)).as("taken when checked").isNotNull();

        assertSameRows(bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "   ",
        "\u000b",
        "\u2003",
        "[]",
        "\"text\"",
        "null",
        "{\"input\": 01}",
        "{\"input\": .5}",
        "{\"input\": +1}",
        "{\"input\": NaN}",
        "{\"input\": \"x\", \"refrence\": \"y\"}",
        "{\"input\": \"x\", \"<<\": \"y\"}",
        "{\"input\": \"x\", \"metadata\": {\"a\": \"x\", \"a\": \"y\"}}",
        "{\"input\": [{\"a\": 1, \"a\": 2}]}",
        "\u0000{\"input\": \"x\"}",
        "{\u0000\"\u0000i\u0000n\u0000p\u0000u\u0000t\u0000\"\u0000:\u0000\"\u0000x\u0000\"\u0000}\u0000",
        "{\"input\": \"x\", \"input\": \"y\"}",
        "{\"input\": \"x\", \"tags\": [\"a\"], \"tags\": [\"a\"]}",
        "{\"input\": \"x\"} {\"input\": \"y\"}",
        "{\"input\": \"x\"}}",
        "{\"input\": \"x\"},",
        "{\"input\": \"x\"} garbage",
        "{\"input\": \"x\",}",
        "{\"input\": [\"x\",]}",
        "{\"input\" \"x\"}",
        "{\"input\": \"x\" \"reference\": \"y\"}",
        "{,\"input\": \"x\"}",
        "{\"input\": ",
        "{\"input\": \"unterminated}",
        "{\"input\": \"x\"",
        "{\"input\": \"x\", ",
        "{\"input\": [\"x\"",
        "{\"input\": tru}",
        "{\"input\": truex}",
        "{\"input\": nul}",
        "{\"input\": True}",
        "{\"input\": 'x'}",
        "{input: \"x\"}",
        "{\"input\": \"tab\there\"}",
        "{\"input\": \"newline \\\n\"}",
        "{\"input\": \"bad escape \\a\"}",
        "{\"input\": \"bad escape \\'\"}",
        "{\"input\": \"short \\u12\"}",
        "{\"input\": \"not hex \\u12G4\"}",
        "{\"input\": \"x\"} // comment",
        "/* comment */ {\"input\": \"x\"}",
        "{\"input\": \"x\"}\u000b",
    })
    void leavesEverythingElseToTheOtherReadings(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        assertThat(new KnownFields().read(bytes, 0, bytes.length)).as("left to the other readings").isNull();

        assertSameRows(bytes);
    }

    @Test
    void leavesBytesThatAreNotUtf8ToTheOtherReadings() {
        String[] sequences = {
            "80", "bf", "c0 80", "c1 bf", "c2", "c2 41", "e0 80 80", "e0 9f bf", "ed a0 80", "ed bf bf", "ef bf",
            "f0 80 80 80", "f0 8f bf bf", "f4 90 80 80", "f5 80 80 80", "fe", "ff", "e2 98", "f0 9f 98",
        };
        for (String sequence : sequences) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            line.writeBytes("{\"input\": \"before ".getBytes(StandardCharsets.US_ASCII));
            for (String hex : sequence.split(" ")) {
                line.write(Integer.parseInt(hex, 16));
            }
            line.writeBytes(" after\"}".getBytes(StandardCharsets.US_ASCII));
            byte[] bytes = line.toByteArray();

            assertThat(new KnownFields().read(bytes, 0, bytes.length)).as(sequence).isNull();
            assertThat(new KnownFields(true).read(bytes, 0, bytes.length)).as(sequence).isNull();
            List<DatasetRow> rows = assertSameRows(bytes);
            assertThat(rows.get(0).error()).as(sequence).isPresent();
        }
    }

    /** jackson-core before 2.21 takes overlong forms and encoded surrogates, so its lines are checked. */
    @Test
    void checksLinesWithTheJdksDecoderUnderAJacksonBefore221() {
        assertThat(KnownFields.refusesBadUtf8(new Version(2, 19, 4, null, "com.fasterxml.jackson.core", "jackson-core")))
                .isFalse();
        assertThat(KnownFields.refusesBadUtf8(new Version(2, 20, 1, null, null, null))).isFalse();
        assertThat(KnownFields.refusesBadUtf8(new Version(2, 21, 0, null, "com.fasterxml.jackson.core", "jackson-core")))
                .isTrue();
        assertThat(KnownFields.refusesBadUtf8(new Version(3, 0, 0, null, null, null))).isTrue();
    }

    @Test
    void readsAFileOfHostileLinesAsTheOtherReadingsDo() {
        String file = "\ufeff{\"id\": \"bom\", \"input\": \"x\"}\r\n"
                + "\n"
                + "   \r\n"
                + "{\"id\": \"b\", \"input\": \"y\", \"tags\": [\"t1\", \"t2\"]}\n"
                + "{\"id\": \"c\", \"input\": \"z\", \"weight\": 2}\n"
                + "{\"id\": \"d\", \"input\": \"z\", \"input\": \"again\"}\r\n"
                + "not json\n"
                + "\ufeff{\"id\": \"bom-past-line-1\", \"input\": \"x\"}\n"
                + "{\"id\": \"e\", \"input\": \"" + "long ".repeat(300_000) + "\"}\n"
                + "{\"id\": \"f\", \"input\": \"" + "ü".repeat(600_000) + "\"}\n"
                + "{\"id\": \"g\", \"input\": \"" + "\\n".repeat(1000) + "\"}\n"
                + "{\"id\": \"deep\", \"input\": " + "[".repeat(100_000) + "]".repeat(100_000) + "}\n"
                + "{\"id\": \"deeper\", \"input\": " + "{\"k\": ".repeat(100_000) + "1" + "}".repeat(100_001) + "\n"
                + "{\"id\": \"h\", \"input\": \"last, without a line break\"}";

        List<DatasetRow> rows = assertSameRows(file.getBytes(StandardCharsets.UTF_8));

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("bom", "b", "c", "d",
                "rows.jsonl:7", "rows.jsonl:8", "e", "f", "g", "rows.jsonl:12", "rows.jsonl:13", "h");
        assertThat(rows.get(9).error().orElseThrow()).contains("rows.jsonl:12", "nesting depth");
        assertThat(rows.get(10).error().orElseThrow()).contains("rows.jsonl:13", "nesting depth");
        assertThat(rows.get(1).evalCase().orElseThrow().tags()).containsExactly("t1", "t2");
        assertThat(rows.get(3).error().orElseThrow()).contains("rows.jsonl:6", "key 'input' appears twice");
        assertThat(rows.get(4).error().orElseThrow()).contains("rows.jsonl:7", "malformed JSON");
        assertThat(rows.get(5).error().orElseThrow()).contains("rows.jsonl:8", "malformed JSON");
    }

    /**
     * The lines of a buffer are read by one parser: an object that spans two lines, a row glued to the next on its
     * line, blank lines and white space between rows are each read as a line alone reads them, at their own line.
     */
    @Test
    void readsLinesOfOneBufferAsLinesAloneAreRead() {
        String file = "{\"id\": \"first\", \"input\": \"x\"}\n"
                + "{\"id\": \"a\", \"input\": \"x\"}\n"
                + "{\"id\": \"spans\", \"input\":\n"
                + "\"two lines\"}\n"
                + "{\"id\": \"b\", \"input\": \"x\"}\n"
                + "\n"
                + " \t\r\n"
                + "{\"id\": \"after blank lines\", \"input\": \"x\"} \t\r\n"
                + "{\"id\": \"glued\", \"input\": \"x\"}{\"id\": \"next\", \"input\": \"y\"}\n"
                + "  {\"id\": \"indented\", \"input\": \"x\"}\n"
                + "{\"id\": \"c\", \"input\": \"x\"} ,\n"
                + "{\"id\": \"d\", \"input\": \"x\", \"refrence\": \"y\"}\n"
                + "{\"id\": \"e\", \"input\": \"x\"}\n";

        List<DatasetRow> rows = assertSameRows(file.getBytes(StandardCharsets.UTF_8));

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("first", "a", "rows.jsonl:3", "rows.jsonl:4",
                "b", "after blank lines", "rows.jsonl:9", "indented", "rows.jsonl:11", "d", "e");
        assertThat(rows).extracting(row -> row.location().orElseThrow().line())
                .containsExactly(1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13);
        assertThat(rows.get(6).error().orElseThrow()).contains("rows.jsonl:9", "malformed JSON");
        assertThat(rows.get(9).error().orElseThrow()).contains("unknown field 'refrence'");
    }

    /** Random rows of known and other fields, with every kind of value, some of them mangled byte by byte. */
    @Test
    void readsRandomLinesAsTheOtherReadingsDo() {
        Random random = new Random(20261202);
        String[] names = {"id", "input", "reference", "output", "tags", "eval_type", "weight", "metadata", "turns",
            "refrence", "in\\u0070ut", "é"};
        String[] values = {"\"text\"", "\"\"", "null", "true", "false", "1", "-2.5e3", "[]", "[\"a\", \"b\"]",
            "[\"a\", 1]", "{\"k\": \"v\"}", "\"\\u00e9\\ud83d\\ude00\\n\"", "\"\\ud800\"", "\"été 😀\"",
            "\"a\\tb\"", "\"tab\there\"", "[\"bad tag\"]", "\"t1;t2\"", "[null]", "[[\"x\"]]"};
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        int taken = 0;
        for (int row = 0; row < 3000; row++) {
            StringBuilder line = new StringBuilder("{");
            int fields = random.nextInt(5);
            for (int field = 0; field < fields; field++) {
                if (field > 0) {
                    line.append(random.nextInt(4) == 0 ? " , " : ",");
                }
                line.append('"').append(names[random.nextInt(names.length)]).append("\":")
                        .append(random.nextBoolean() ? " " : "").append(values[random.nextInt(values.length)]);
            }
            line.append('}');
            byte[] bytes = line.toString().getBytes(StandardCharsets.UTF_8);
            if (random.nextInt(4) == 0) {
                bytes = mangle(bytes, random);
            }
            if (new KnownFields().read(bytes, 0, bytes.length) != null) {
                taken++;
            }
            file.writeBytes(bytes);
            file.writeBytes(random.nextInt(5) == 0 ? new byte[] {'\r', '\n'} : new byte[] {'\n'});
        }

        assertSameRows(file.toByteArray());
        assertThat(taken).as("lines the first reading took").isGreaterThan(300);
    }

    /** Every special character of text at every place in it, up to twenty characters in. */
    @Test
    void readsTextWithASpecialCharacterAtEveryPlace() {
        String[] specials = {"\\\"", "\\\\", "\\n", "\\u00e9", "\t", "\u001f", "\u007f", "é", "😀", "\u0800",
            "\"", "\\"};
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        for (String special : specials) {
            for (int before = 0; before < 20; before++) {
                String line = "{\"input\": \"" + "abcdefghijklmnopqrstuvwxyz".substring(0, before) + special
                        + "0123456789\", \"reference\": \"" + special + "\"}\n";
                file.writeBytes(line.getBytes(StandardCharsets.UTF_8));
            }
        }

        List<DatasetRow> rows = assertSameRows(file.toByteArray());

        assertThat(rows).hasSize(specials.length * 20);
        assertThat(rows.get(0).evalCase().orElseThrow().input()).isEqualTo("\"0123456789");
        assertThat(rows.get(20 * 3 + 19).evalCase().orElseThrow().input()).isEqualTo("abcdefghijklmnopqrsé0123456789");
    }

    /**
     * Most lines are read where they are in the reader's buffer, their end found by the reading: rows are the same when
     * the stream hands its bytes over in pieces of any size, so that lines, characters, escapes and line ends are cut
     * at every place, and for lines longer than the buffer.
     */
    @Test
    void readsLinesCutByTheEndOfARead() {
        Random random = new Random(20261202);
        String[] lines = {"{\"id\": \"a%d\", \"input\": \"%s\", \"tags\": [\"t\"]}",
            "{\"input\": \"%2$s\", \"id\": \"b%1$d\"}  \r",
            "{\"id\": \"c%d\", \"input\": \"%s\", \"weight\": 2}",
            "{\"id\": \"d%d\", \"input\": \"%s\", \"input\": \"again\"}",
            "{\"id\": \"e%d\", \"input\": \"%s\"} x",
            "{\"id\": \"f%d\", \"input\": \"%s\"",
            "{\"id\": \"g%d\", \"input\": \"%s\", \"output\": tru",
            "  ",
            ""};
        String[] texts = {"short", "é😀\\n\\u00e9", "x".repeat(70_000), "\\", "a\tb"};
        StringBuilder file = new StringBuilder();
        for (int row = 0; row < 1500; row++) {
            String text = texts[random.nextInt(4) == 0 ? random.nextInt(texts.length) : 0];
            file.append(String.format(lines[random.nextInt(lines.length)], row, text))
                    .append(random.nextInt(5) == 0 ? "\r\n" : "\n");
        }
        byte[] bytes = file.toString().getBytes(StandardCharsets.UTF_8);
        List<DatasetRow> expected = rows(new ByteArrayInputStream(bytes), null);

        for (int piece : new int[] {1, 7, 200, 4096, 70_000}) {
            List<DatasetRow> read = rows(new ByteArrayInputStream(bytes) {
                @Override
                public synchronized int read(byte[] b, int off, int len) {
                    return super.read(b, off, Math.min(len, 1 + random.nextInt(piece)));
                }
            }, new KnownFields());
            assertThat(read).as("pieces of up to " + piece + " bytes").hasSameSizeAs(expected);
            for (int i = 0; i < read.size(); i++) {
                DatasetRow a = read.get(i);
                DatasetRow b = expected.get(i);
                assertThat(a.caseId()).as("row " + i).isEqualTo(b.caseId());
                assertThat(a.error()).as("row " + i).isEqualTo(b.error());
                assertThat(a.location()).as("row " + i).isEqualTo(b.location());
                assertThat(a.evalCase()).as("row " + i).isEqualTo(b.evalCase());
            }
        }
        assertThat(expected).filteredOn(row -> row.error().isEmpty()).hasSizeGreaterThan(300);
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

    private static byte[] mangle(byte[] bytes, Random random) {
        byte[] mangled = bytes.clone();
        int at = random.nextInt(mangled.length);
        mangled[at] = switch (random.nextInt(6)) {
            case 0 -> (byte) 0x80;
            case 1 -> (byte) 0xC3;
            case 2 -> '"';
            case 3 -> '\\';
            case 4 -> (byte) random.nextInt(0x20);
            default -> (byte) random.nextInt(256);
        };
        return mangled;
    }

    /**
     * Reads the bytes with the first reading off, then on as this Jackson runs it and with its lines checked by the
     * JDK's UTF-8 decoder (as with a Jackson before 2.21); asserts the rows are the same and returns them.
     */
    private static List<DatasetRow> assertSameRows(byte[] file) {
        List<DatasetRow> other = rows(file, null);
        List<DatasetRow> known = rows(file, new KnownFields());
        for (List<DatasetRow> first : List.of(known, rows(file, new KnownFields(true)))) {
            assertThat(first).hasSameSizeAs(other);
            for (int i = 0; i < first.size(); i++) {
                DatasetRow a = first.get(i);
                DatasetRow b = other.get(i);
                String row = "row " + i + " " + b;
                assertThat(a.caseId()).as(row).isEqualTo(b.caseId());
                assertThat(a.error()).as(row).isEqualTo(b.error());
                assertThat(a.location()).as(row).isEqualTo(b.location());
                assertThat(a.evalCase()).as(row).isEqualTo(b.evalCase());
                if (a.evalCase().isPresent()) {
                    EvalCase x = a.evalCase().get();
                    EvalCase y = b.evalCase().get();
                    assertThat(List.copyOf(x.tags())).as(row).isEqualTo(List.copyOf(y.tags()));
                    assertThat(String.valueOf(x.input())).as(row).isEqualTo(String.valueOf(y.input()));
                    assertThat(x.recordedOutput()).as(row).isEqualTo(y.recordedOutput());
                }
            }
        }
        return known;
    }

    private static List<DatasetRow> rows(byte[] file, KnownFields known) {
        return rows(new ByteArrayInputStream(file), known);
    }

    private static List<DatasetRow> rows(InputStream file, KnownFields known) {
        List<DatasetRow> rows = new ArrayList<>();
        try (JsonLinesReader reader = new JsonLinesReader(SOURCE, file, known)) {
            reader.forEachRemaining(rows::add);
        }
        return rows;
    }
}
