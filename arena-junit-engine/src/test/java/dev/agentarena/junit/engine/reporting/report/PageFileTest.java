package dev.agentarena.junit.engine.reporting.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.SinkText;

/**
 * The page's generator ({@link PageFile#generator}) keeps any text inside its script block: whatever a string or a
 * field name holds (every UTF-16 unit, lone surrogates, {@code </script>}, {@code <!--}, line separators, controls,
 * megabytes of them), the block holds none of {@code < > &}, no line or paragraph separator and no control, is
 * well-formed UTF-8, and parses back to the very text.
 */
class PageFileTest {

    @TempDir
    Path directory;

    /** A write through the page's generator. */
    private interface Write {
        void to(JsonGenerator json) throws IOException;
    }

    /** What the generator wrote between two pieces of markup, decoded as strict UTF-8. */
    private static String block(Write write) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator json = PageFile.generator(out)) {
            json.writeRaw("<script>");
            write.to(json);
            json.writeRaw("</script>");
        }
        String page;
        try {
            page = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(out.toByteArray())).toString();
        }
        catch (CharacterCodingException e) {
            throw new AssertionError("not well-formed UTF-8", e);
        }
        assertThat(page).startsWith("<script>").endsWith("</script>");
        return page.substring("<script>".length(), page.length() - "</script>".length());
    }

    /** The block holds no character that could end it, start markup or end a script line, nor a control. */
    private static void assertSafe(String block) {
        int at = 0;
        while (at < block.length() && !unsafe(block.charAt(at))) {
            at++;
        }
        assertThat(at).as("the first character written as it is that could leave the block, %s",
                at < block.length() ? String.format("U+%04X", (int) block.charAt(at)) : "none")
                .isEqualTo(block.length());
    }

    private static boolean unsafe(char c) {
        return c < 0x20 || c == '<' || c == '>' || c == '&' || PageFile.ScriptSafe.escaped(c);
    }

    /**
     * Each text as a value and as a field name: the block is safe and reads back as the texts. Jackson's parser
     * refuses a name with a lone surrogate or of more than 50,000 characters, so those names are checked safe only.
     */
    private static void assertSafeAndReadBack(List<String> texts) throws IOException {
        ObjectNode names = Json.MAPPER.createObjectNode();
        ObjectNode readableNames = Json.MAPPER.createObjectNode();
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            names.put(text, i);
            if (text.length() <= 50_000 && SinkText.wellFormed(text).equals(text)) {
                readableNames.put(text, i);
            }
        }
        String block = block(json -> {
            json.writeStartArray();
            for (String text : texts) {
                json.writeString(text);
            }
            json.writeTree(readableNames);
            json.writeEndArray();
        });
        assertSafe(block);
        ArrayNode expected = Json.MAPPER.createArrayNode();
        texts.forEach(expected::add);
        // one comparison of the whole: an assertion per text would take most of the test's time
        assertThat(Json.MAPPER.readTree(block).equals(expected.add(readableNames))).as("read back").isTrue();
        assertSafe(block(json -> json.writeTree(names)));
    }

    @Test
    void everyCharacterIsEscapedWhereItCouldLeaveTheBlockAndReadsBack() throws IOException {
        List<String> texts = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        for (int c = 0; c <= 0xFFFF; c++) {
            texts.add("a" + (char) c + "b");
            all.append((char) c);
        }
        texts.add(all.toString());
        assertSafeAndReadBack(texts);
        // the page's escapes are lower-case, as the page always wrote them; JSON's own (C0) upper-case
        assertThat(block(json -> json.writeString("<\u2028\uD800\u007F\u001F\n"))).isEqualTo(
                "\"\\u003c\\u2028\\ud800\\u007f\\u001F\\n\"");
        // text JSON leaves alone is written as its UTF-8
        assertThat(block(json -> json.writeString("caf\u00e9 \u4e2d \uD83D\uDE00"))).isEqualTo(
                "\"caf\u00e9 \u4e2d \\ud83d\\ude00\"");
    }

    @Test
    void hostileTextsStayData() throws IOException {
        List<String> texts = new ArrayList<>(CaseReportTest.HOSTILE);
        texts.addAll(List.of("</script>", "</SCRIPT >", "<!--", "-->", "<!-- <script>", "<![CDATA[", "]]>",
                "lone high \uD800", "lone low \uDC00", "reversed \uDC00\uD800", "at the end \uD83D",
                "\uDE00 at the start", "\\u003c/script>", "\"\\", "\u0000"));
        assertSafeAndReadBack(texts);
        Map<String, Object> meta = new LinkedHashMap<>();
        texts.forEach(text -> meta.put("text " + meta.size(), List.of(text, 0.5)));
        String block = block(json -> Json.MAPPER.writeValue(json, meta));
        assertSafe(block);
        assertThat(Json.MAPPER.readTree(block)).isEqualTo(Json.MAPPER.valueToTree(meta));
    }

    @Test
    void hugeTextsAreWrittenWholeAndSafe() throws IOException {
        // past the generator's buffer, with escapes and surrogates across its boundaries
        assertSafeAndReadBack(List.of("</script>".repeat(100_000), "\u2028".repeat(100_000) + "\uD800",
                "\u00e9\uD83D\uDE00".repeat(100_000), "x".repeat(1_000_001) + "<", "\uDBFF".repeat(100_001)));
    }

    @Test
    void numbersAreWrittenAsJavaWritesThemAndNonFiniteOnesAsTexts() throws IOException {
        assertThat(block(json -> {
            json.writeStartArray();
            for (double value : new double[] {0.0, -0.0, 1.0, 0.1, 1.0 / 3, 1e-7, 2.1e-5, 1e21, Double.NaN,
                Double.POSITIVE_INFINITY}) {
                json.writeNumber(value);
            }
            json.writeNumber(Long.MIN_VALUE);
            json.writeEndArray();
        })).isEqualTo(String.format(Locale.ROOT, "[0.0,-0.0,1.0,0.1,%s,1.0E-7,2.1E-5,1.0E21,\"NaN\",\"Infinity\",%d]",
                1.0 / 3, Long.MIN_VALUE));
    }

    @Test
    void valuesAtTheRootFollowEachOtherWithOnlyTheMarkupBetween() throws IOException {
        assertThat(block(json -> {
            json.writeStartArray();
            json.writeNumber(1);
            json.writeEndArray();
            json.writeRaw("<x>");
            json.writeStartArray();
            json.writeEndArray();
        })).isEqualTo("[1]<x>[]");
    }

    @Test
    void aPageReplacesItsTargetOnlyWhenCommitted() throws IOException {
        Path target = Files.writeString(directory.resolve("report.html"), "the previous page");
        try (PageFile page = PageFile.open(target)) {
            page.block("arena-strings", List.of("<"));
        }
        assertThat(target).hasContent("the previous page");
        assertThat(directory.toFile().list()).containsExactly("report.html");

        try (PageFile page = PageFile.open(target)) {
            page.block("arena-strings", List.of("<"));
            assertThat(page.commit(target)).isEqualTo(target.toAbsolutePath());
        }
        assertThat(Files.readString(target)).contains("<script type=\"application/json\" id=\"arena-strings\">"
                + "[\"\\u003c\"]</script>\n").endsWith("</html>\n");
        assertThat(directory.toFile().list()).containsExactly("report.html");
    }
}
