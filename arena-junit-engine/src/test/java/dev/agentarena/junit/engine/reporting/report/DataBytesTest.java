package dev.agentarena.junit.engine.reporting.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;

/**
 * The page's data written as bytes ({@link DataBytes}) is the bytes of the way it was written before: a Jackson
 * generator writing through {@link EmbeddedJson} into a UTF-8 writer. Every character, paired and lone surrogates,
 * texts longer than the buffer, numbers of every kind and trees.
 */
class DataBytesTest {

    /** A write to one of the two writers. */
    private interface Write<T> {
        void to(T writer) throws IOException;
    }

    /** One value of an array, written both ways. */
    private record Value(Write<JsonGenerator> generator, Write<DataBytes> bytes) {
    }

    private static Value string(String text) {
        return new Value(json -> json.writeString(text), bytes -> bytes.string(text));
    }

    /** A text known to be plain, copied ({@link DataBytes#plainString}); the generator writes it as any string. */
    private static Value plain(String text) {
        return new Value(json -> json.writeString(text), bytes -> bytes.plainString(text));
    }

    private static Value number(double value) {
        return new Value(json -> json.writeNumber(value), bytes -> bytes.number(value));
    }

    private static Value number(long value) {
        return new Value(json -> json.writeNumber(value), bytes -> bytes.number(value));
    }

    private static Value tree(JsonNode tree) {
        return new Value(json -> json.writeTree(tree), bytes -> bytes.tree(tree));
    }

    private static final Value NULL = new Value(JsonGenerator::writeNull, DataBytes::nullValue);

    /** The values in an array with an empty array and a nested one, as the old writer wrote them. */
    private static byte[] before(List<Value> values) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8.newEncoder());
        writer.write("<chunk>");
        JsonGenerator json = Json.MAPPER.getFactory().createGenerator(new EmbeddedJson(writer));
        json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        json.writeStartArray();
        json.writeStartArray();
        json.writeEndArray();
        json.writeStartArray();
        for (Value value : values) {
            value.generator().to(json);
        }
        json.writeEndArray();
        json.writeNumber(7);
        json.writeEndArray();
        json.flush();
        json.close();
        writer.write("</chunk>\n");
        writer.flush();
        return out.toByteArray();
    }

    private static byte[] after(List<Value> values) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DataBytes bytes = new DataBytes(out);
        bytes.markup("<chunk>");
        bytes.startRoot();
        bytes.startArray();
        bytes.endArray();
        bytes.startArray();
        for (Value value : values) {
            value.bytes().to(bytes);
        }
        bytes.endArray();
        bytes.number(7);
        bytes.endArray();
        bytes.markup("</chunk>\n");
        bytes.drain();
        return out.toByteArray();
    }

    private static void assertSameBytes(List<Value> values) throws IOException {
        byte[] after = after(values);
        byte[] before = before(values);
        assertThat(new String(after, StandardCharsets.UTF_8)).isEqualTo(new String(before, StandardCharsets.UTF_8));
        assertThat(after).isEqualTo(before);
    }

    @Test
    void everyCharacterAloneAndAmongOthers() throws IOException {
        List<Value> values = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        for (int c = 0; c <= 0xFFFF; c++) {
            values.add(string(String.valueOf((char) c)));
            values.add(string("a" + (char) c + "b"));
            all.append((char) c);
        }
        values.add(string(all.toString()));
        values.add(string(null));
        values.add(string(""));
        assertSameBytes(values);
    }

    @Test
    void pairedAndLoneSurrogatesAndHostileTexts() throws IOException {
        List<Value> values = new ArrayList<>();
        for (String text : CaseReportTest.HOSTILE) {
            values.add(string(text));
        }
        values.add(string("\uD83D\uDE00 pair, lone high \uD800, lone low \uDC00, reversed \uDC00\uD800, end \uD83D"));
        values.add(string("caf\u00e9 \u4e2d\u6587 \u0800 \u07FF \u0080 \u00A0 \uFFFD \uFEFF"));
        assertSameBytes(values);
    }

    @Test
    void textsLongerThanTheBufferAndRandomTexts() throws IOException {
        SplittableRandom random = new SplittableRandom(27);
        List<Value> values = new ArrayList<>();
        values.add(string("x".repeat(200_000)));
        values.add(string("\u0001<\u2028".repeat(70_000)));
        values.add(string("\u00e9".repeat(100_001)));
        for (int i = 0; i < 2_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(200);
            for (int k = 0; k < length; k++) {
                int kind = random.nextInt(4);
                text.append((char) (kind == 0 ? random.nextInt(0x10000) : kind == 1 ? random.nextInt(0x80)
                        : kind == 2 ? random.nextInt(0x800) : 0x20 + random.nextInt(0x5F)));
            }
            values.add(string(text.toString()));
            values.add(number((long) random.nextInt(1000)));
        }
        assertSameBytes(values);
    }

    @Test
    void numbers() throws IOException {
        List<Value> values = new ArrayList<>();
        for (double value : new double[] {0.0, -0.0, 1.0, -1.0, 0.5, 0.25, 1e-3, 0.002, 9.99e-4, 1e-4, 1e7, -1e7,
            9_999_999.0, -9_999_999.0, 10_000_001.0, 1.5e-6, 0.1, 1.0 / 3, 123_456.0, Double.MIN_VALUE,
            Double.MAX_VALUE, -Double.MAX_VALUE, Math.nextDown(1e7), Math.nextUp(1e-3), Math.nextDown(1e-3), 1e300,
            Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 4.0E-5, 2.5E-7}) {
            values.add(number(value));
        }
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 20_000; i++) {
            values.add(number(Double.longBitsToDouble(random.nextLong())));
            values.add(number(random.nextInt(-20_000_000, 20_000_000) / (double) (1 << random.nextInt(12))));
            values.add(number(random.nextDouble()));
        }
        for (long value : new long[] {0, 1, 9, 10, 11, 99, 100, -1, -9, -10, 1_000_000_007, Integer.MAX_VALUE,
            Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, -2, 999_999_999_999L, 1_000_000_000_000L}) {
            values.add(number(value));
        }
        for (int i = 0; i < 10_000; i++) {
            values.add(number(random.nextLong()));
            values.add(number((long) random.nextInt()));
        }
        values.add(NULL);
        assertSameBytes(values);
    }

    @Test
    void trees() throws IOException {
        List<Value> values = new ArrayList<>();
        for (String text : CaseReportTest.HOSTILE) {
            ObjectNode metrics = Json.MAPPER.createObjectNode();
            metrics.put(text, 0.5).put("n", 3.0).putNull("none");
            metrics.put("tiny", 1.5e-7).put("neg", -0.0);
            values.add(tree(metrics));
            values.add(tree(Json.MAPPER.createArrayNode().addObject().put("type", "tool").put("name", text)
                    .put("result", text)));
        }
        values.add(tree(Json.MAPPER.createObjectNode().put("long", "\u00e9<".repeat(40_000))));
        assertSameBytes(values);
    }

    /**
     * A text is plain exactly when every character of it is written as its own one byte (printable ASCII but the five
     * escaped); a plain text copied is the bytes of the generator, short or long (past half the buffer it is written a slice at a time), among other values.
     */
    @Test
    void plainTextsAreExactlyThoseWrittenAsTheyAreAndCopiedGiveTheSameBytes() throws IOException {
        List<Value> values = new ArrayList<>();
        int plainCharacters = 0;
        for (int c = 0; c <= 0xFFFF; c++) {
            String text = "a" + (char) c + "b";
            // neither Jackson nor EmbeddedJson escapes it, and it is one byte in UTF-8
            boolean asItIs = c >= 0x20 && c < 0x80 && c != '"' && c != '\\' && !EmbeddedJson.escaped((char) c);
            assertThat(DataBytes.plain(text)).as("U+%04X", c).isEqualTo(asItIs);
            if (asItIs) {
                plainCharacters++;
                values.add(plain(text));
                values.add(plain(String.valueOf((char) c)));
            }
        }
        // the printable ASCII characters but " \\ < > &
        assertThat(plainCharacters).isEqualTo(0x7F - 0x20 - 5);
        assertThat(DataBytes.plain("")).isTrue();
        assertThat(DataBytes.plain("case-0000001 \uD83D\uDE00")).isFalse();
        values.add(plain(""));
        SplittableRandom random = new SplittableRandom(31);
        for (int i = 0; i < 2_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(300);
            while (text.length() < length) {
                char c = (char) (0x20 + random.nextInt(0x5F));
                if (DataBytes.plain(String.valueOf(c))) {
                    text.append(c);
                }
            }
            values.add(plain(text.toString()));
            values.add(number((long) random.nextInt(1000)));
            values.add(string("\"" + text + "\n"));
        }
        for (int length : new int[] {(1 << 15) - 40, 1 << 15, (1 << 15) + 1, 70_000, 200_001}) {
            values.add(plain("y".repeat(length)));
            values.add(plain("case-" + length));
        }
        assertSameBytes(values);
    }
}
