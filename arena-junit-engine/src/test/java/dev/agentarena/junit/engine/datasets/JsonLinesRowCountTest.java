package dev.agentarena.junit.engine.datasets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.agentarena.junit.engine.Slow;

/**
 * The console's progress total counted from a JSON Lines file's bytes ({@link JsonLinesRowCount}) is the number of
 * rows {@link JsonLinesReader} makes of the same bytes: every line is compared, for every character a line can hold,
 * and whole files are compared on their edges and on random ones.
 */
@Slow
class JsonLinesRowCountTest {

    private static final DatasetSource SOURCE = new DatasetSource("rows.jsonl", URI.create("file:/rows.jsonl"), null,
            "test file rows.jsonl");

    @Test
    void aLineIsARowExactlyWhenTheReaderMakesOneOfItForEveryCharacterAndForBytesThatAreNotUtf8() throws IOException {
        List<byte[]> lines = new ArrayList<>();
        for (int c = 0; c <= 0xFFFF; c++) {
            if (c == '\n' || Character.isSurrogate((char) c)) {
                continue;
            }
            String character = String.valueOf((char) c);
            lines.add(utf8(character));
            lines.add(utf8(" \t" + character + character + "\u3000\r"));
        }
        lines.add(utf8("\uD83D\uDE00"));
        lines.add(utf8("\u2000\u2001\u2028\u2029\u205F\u3000\u1680 \u000B\f\u001C\u001F"));
        // a lone surrogate's bytes, a cut character, a stray continuation byte, an overlong space
        for (byte[] bad : new byte[][] {{(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xE3, (byte) 0x80},
            {' ', (byte) 0x80, ' '}, {(byte) 0xC0, (byte) 0xA0}, {(byte) 0xE0, (byte) 0x80, (byte) 0xA0},
            {(byte) 0xE2, ' ', (byte) 0x80}}) {
            lines.add(bad);
        }

        ByteArrayOutputStream file = new ByteArrayOutputStream();
        for (byte[] line : lines) {
            file.write(line);
            file.write('\n');
        }
        Set<Integer> rowLines = new HashSet<>();
        try (JsonLinesReader reader = new JsonLinesReader(SOURCE, new ByteArrayInputStream(file.toByteArray()))) {
            reader.forEachRemaining(row -> rowLines.add(row.location().orElseThrow().line()));
        }

        int blank = 0;
        for (int i = 0; i < lines.size(); i++) {
            // a row, then the line: a blank line adds nothing to 1 (not the empty file's failed row), and the line is
            // not the first, whose byte order mark would be skipped
            ByteArrayOutputStream one = new ByteArrayOutputStream();
            one.write(utf8("{}\n"));
            one.write(lines.get(i));
            one.write('\n');
            long rows = count(one.toByteArray()) - 1;
            boolean isRow = rowLines.contains(i + 1);
            assertThat(rows).as("line %d: %s", i + 1, new String(lines.get(i), StandardCharsets.UTF_8))
                    .isEqualTo(isRow ? 1 : 0);
            blank += isRow ? 0 : 1;
        }
        // the comparison is not one-sided: the characters that are whitespace made blank lines
        assertThat(blank).isGreaterThan(20);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\n\n \r\n\t\n", "\uFEFF", "\uFEFF\n", "\uFEFF{}", "{}", "{}\n", "{}\r\n{}\r\n",
        "\n{}\n\n\n{}", "\u3000\n{}", "{\"id\": \"a\"}\n{\"id\": \"a\"}\n", "not json\n{}\n[1]\n", "\uFEFF\uFEFF\n",
        "{}\n\uFEFF\n", "\u0000\n", "\u00A0\n\u2007\n\u202F\n\u0085\n"})
    void aFileCountsAsManyRowsAsTheReaderReadsIncludingTheFailedRowOfAFileWithoutAny(String text) throws IOException {
        byte[] file = utf8(text);
        assertThat(count(file)).isEqualTo(read(file));
    }

    @Test
    void linesAndCharactersCutByTheEndOfABufferCountAsWhole() throws IOException {
        int buffer = 64 * 1024;
        for (int cut = 0; cut < 4; cut++) {
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            // the ideographic space's three bytes fall on either side of the end of the first buffer
            file.write(utf8(" ".repeat(buffer - 1 - cut)));
            file.write(utf8("\u3000\u3000\n"));
            file.write(utf8(" ".repeat(3 * buffer) + "{\"id\": \"far\"}" + " ".repeat(buffer) + "\n"));
            file.write(utf8("{}\n".repeat(5000)));
            byte[] bytes = file.toByteArray();
            assertThat(count(bytes)).isEqualTo(read(bytes)).isEqualTo(5001);
        }
    }

    @Test
    void randomFilesOfHostileLinesCountAsTheReaderReads() throws IOException {
        String[] parts = {"{}", "{\"id\": \"x\"}", " ", "\t", "\r", "\u3000", "\u2028", "\u00A0", "\u2007", "\uFEFF",
            "\u0000", "\u001F", "\u007F", "\uD83D\uDE00", "[", "\"", "é", "\u1680", "\u205F"};
        byte[][] badBytes = {{(byte) 0xE2}, {(byte) 0x80}, {(byte) 0xE2, (byte) 0x80}, {(byte) 0xFF}};
        Random random = new Random(27);
        for (int f = 0; f < 400; f++) {
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            int lines = random.nextInt(12);
            for (int l = 0; l < lines; l++) {
                int length = random.nextInt(5);
                for (int p = 0; p < length; p++) {
                    if (random.nextInt(10) == 0) {
                        file.write(badBytes[random.nextInt(badBytes.length)]);
                    }
                    else {
                        file.write(utf8(parts[random.nextInt(parts.length)]));
                    }
                }
                if (l < lines - 1 || random.nextBoolean()) {
                    file.write('\n');
                }
            }
            byte[] bytes = file.toByteArray();
            assertThat(count(bytes)).as("file %d", f).isEqualTo(read(bytes));
        }
    }

    private static long count(byte[] file) throws IOException {
        return JsonLinesRowCount.rows(new ByteArrayInputStream(file));
    }

    /** The rows the dataset's own reading makes of the bytes, the empty file's failed row and duplicates included. */
    private static long read(byte[] file) throws IOException {
        long rows = 0;
        try (DatasetStream stream = DatasetFiles.read(SOURCE, new ByteArrayInputStream(file))) {
            while (stream.hasNext()) {
                stream.next();
                rows++;
            }
        }
        return rows;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
