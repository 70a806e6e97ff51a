package dev.agentarena.junit.engine.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamWriter;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Each sink a text reaches, over the whole catalogue of {@link HostileStrings}: test names, failure messages,
 * Surefire's XML, the console's score lines, HTML and Allure's names.
 */
class SinkTextTest {

    @Test
    void namesAreOneLineOfCharactersEverySinkAccepts() {
        HostileStrings.all().forEach((what, text) -> {
            String name = SinkText.name(text, 160);

            assertThat(name).as(what).doesNotContain("\n", "\r").hasSizeLessThanOrEqualTo(160);
            assertThat(HostileStrings.holdsControls(name)).as(what).isFalse();
            assertThat(HostileStrings.holdsNonCharacters(name)).as(what).isFalse();
            assertThat(HostileStrings.xmlValid(name)).as(what + ": " + name).isTrue();
            assertThat(SinkText.name(name, 160)).as("%s: idempotent", what).isEqualTo(name);
        });
        assertThat(SinkText.name("a\uFFFEb", 80)).isEqualTo("a\uFFFDb");
        assertThat(SinkText.name("a\r\n\u001B[31mb", 80)).isEqualTo("a [31mb");
        assertThat(SinkText.name("ok \uD83D\uDE00", 80)).isEqualTo("ok \uD83D\uDE00");
        assertThat(SinkText.name("x".repeat(100) + "\uD83D\uDE00", 101)).endsWith("x…");
    }

    @Test
    void messagesKeepTheirLinesSpellOutTheRestAndForgeNoLine() {
        HostileStrings.all().forEach((what, text) -> {
            String message = SinkText.message(text);

            assertThat(HostileStrings.holdsControls(message)).as(what).isFalse();
            assertThat(HostileStrings.holdsNonCharacters(message)).as(what).isFalse();
            assertThat(HostileStrings.xmlValid(message)).as(what).isTrue();
            List<String> lines = message.lines().toList();
            assertThat(lines.subList(1, lines.size())).as(what).allMatch(line -> line.startsWith("  "));
        });
        assertThat(SinkText.message("fine\r\n" + HostileStrings.FORGED_LINE))
                .isEqualTo("fine\n  " + HostileStrings.FORGED_LINE);
        assertThat(SinkText.message("\u001B[31mred")).isEqualTo("\\u001B[31mred");
        assertThat(SinkText.message("a\uD800b\tc\uFFFE")).isEqualTo("a\uFFFDb\tc\\uFFFE");
        assertThat(SinkText.message("plain")).isSameAs("plain");
    }

    @Test
    void anExcerptIsOneQuotableLineThatSpellsOutWhatItCannotShowAndIsCut() {
        HostileStrings.all().forEach((what, text) -> {
            String excerpt = SinkText.excerpt(text, 80);

            assertThat(excerpt).as(what).doesNotContain("\n", "\r").hasSizeLessThanOrEqualTo(80);
            assertThat(HostileStrings.holdsControls(excerpt)).as(what).isFalse();
            assertThat(HostileStrings.holdsNonCharacters(excerpt)).as(what).isFalse();
            assertThat(HostileStrings.xmlValid(excerpt)).as(what).isTrue();
            // every quote is escaped, so the quotes around an excerpt are the excerpt's end
            assertThat(excerpt.replace("\\\\", "")).as(what).doesNotContainPattern("(?<!\\\\)\"");
        });
        assertThat(SinkText.excerpt("Prais", 80)).isEqualTo("Prais");
        assertThat(SinkText.excerpt(" Paris\r\n\tok\u001B[31m", 80)).isEqualTo(" Paris\\r\\n\\tok\\u001B[31m");
        assertThat(SinkText.excerpt("say \"hi\" C:\\x", 80)).isEqualTo("say \\\"hi\\\" C:\\\\x");
        assertThat(SinkText.excerpt("a\u202Eb\uFFFE\uD800", 80)).isEqualTo("a\\u202Eb\\uFFFE\\uD800");
        assertThat(SinkText.excerpt("x".repeat(100), 10)).isEqualTo("xxxxxxxxx…");
        assertThat(SinkText.excerpt("x".repeat(10), 10)).isEqualTo("x".repeat(10));
        // never half an escape or half a pair
        assertThat(SinkText.excerpt("xxxxxx\n\n", 8)).isEqualTo("xxxxxx…");
        assertThat(SinkText.excerpt("xxxxxxx\uD83D\uDE00yy", 9)).isEqualTo("xxxxxxx…");
        assertThat(SinkText.excerpt(null, 10)).isEmpty();
    }

    @Test
    void surefireXmlOfHostileNamesAndMessagesParses() throws Exception {
        // What Surefire writes: the test's name (display and legacy), its failure message and its stdout (the score
        // line). Its writer escapes markup but not characters XML 1.0 forbids, as the StAX writer here does not.
        StringWriter xml = new StringWriter();
        XMLStreamWriter writer = XMLOutputFactory.newInstance().createXMLStreamWriter(xml);
        writer.writeStartDocument("UTF-8", "1.0");
        writer.writeStartElement("testsuite");
        for (Map.Entry<String, String> hostile : HostileStrings.all().entrySet()) {
            ResultRecord record = record(hostile.getValue());
            writer.writeStartElement("testcase");
            writer.writeAttribute("name", ScoreLine.displayName("sim_small/data[" + SinkText.name(hostile.getValue(),
                    1000) + "]/exact_match", 0.0, ResultStatus.FAILED, hostile.getValue()));
            writer.writeStartElement("failure");
            writer.writeAttribute("message", ScoreLine.lowScoreMessage(record));
            writer.writeCharacters(ScoreLine.lowScoreMessage(record));
            writer.writeEndElement();
            writer.writeStartElement("system-out");
            writer.writeCharacters(ScoreLine.of(record));
            writer.writeEndElement();
            writer.writeEndElement();
        }
        writer.writeEndElement();
        writer.writeEndDocument();
        writer.close();

        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.toString().getBytes(StandardCharsets.UTF_8)));

        assertThat(document.getElementsByTagName("testcase").getLength()).isEqualTo(HostileStrings.all().size());
    }

    @Test
    void aConsoleScoreLineIsOneLineWhateverItsFieldsHold() {
        HostileStrings.all().forEach((what, text) -> {
            String line = ScoreLine.of(record(text));

            assertThat(line).as(what).startsWith("[arena] ").doesNotContain("\n", "\r");
            assertThat(HostileStrings.holdsControls(line)).as(what).isFalse();
            assertThat(HostileStrings.xmlValid(line)).as(what).isTrue();
        });
        // the forged line is on the real line's line, not one of its own
        assertThat(ScoreLine.of(record("fine\r\n" + HostileStrings.FORGED_LINE)).lines()).hasSize(1);
    }

    @Test
    void htmlIsEscapedAndHoldsOnlyCharactersAPageMay() {
        HostileStrings.all().forEach((what, text) -> {
            String html = SinkText.html(text + "<script>&\"'");

            assertThat(html).as(what).doesNotContain("<script>").endsWith("&lt;script&gt;&amp;&quot;&#39;");
            assertThat(HostileStrings.holdsControls(html)).as(what).isFalse();
            assertThat(HostileStrings.holdsNonCharacters(html)).as(what).isFalse();
            assertThat(HostileStrings.xmlValid(html)).as(what).isTrue();
        });
    }

    @Test
    void allureNamesSurviveItsJson() {
        // Allure writes its results with Jackson, whose UTF-8 writer refuses a lone surrogate: the result would be lost.
        ObjectMapper json = new ObjectMapper();
        HostileStrings.all().forEach((what, text) -> {
            String name = SinkText.name(text, 1000);
            assertThatCode(() -> {
                byte[] bytes = json.writeValueAsBytes(Map.of("name", name, "labels", List.of(Map.of("value", name))));
                assertThat(json.readTree(bytes).get("name").asText()).isEqualTo(name);
            }).as(what).doesNotThrowAnyException();
        });
    }

    private static ResultRecord record(String hostile) {
        return new ResultRecord("eval " + hostile, "sim_small", "data", hostile, "exact_match", "v1", "r", 0, 0.0,
                false, ResultStatus.FAILED, hostile, Map.of(), null, 0, 0, 0.0, false, 1.0, List.of(), null, hostile);
    }
}
