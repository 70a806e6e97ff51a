package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamWriter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.Event;
import org.w3c.dom.Document;

import dev.agentarena.junit.engine.fixtures.HostileOutputsFixture;

/**
 * Outputs and a case id that carry U+FFFE, a lone surrogate, ESC sequences and a CR LF before a forged score line,
 * through a whole run: the class's Surefire XML, built from what the engine hands Surefire (names, failure messages,
 * stdout), still parses, and no line the run prints is the forged one or carries an ESC.
 */
class HostileOutputsEngineTest {

    private static String trace(Throwable thrown) {
        java.io.StringWriter text = new java.io.StringWriter();
        thrown.printStackTrace(new java.io.PrintWriter(text));
        return text.toString();
    }

    @TempDir
    Path output;

    @Test
    void reportsStayWellFormedWhateverTheModelWrites() throws Exception {
        // names that carry the reason too (Surefire's stable names carry only model, dataset, case and scorer)
        EngineRun run = new EngineRun(output).with(Constants.LOW_SCORES, "fail").with(Constants.DISPLAY_NAMES, "full");
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            run.execute(HostileOutputsFixture.class);
        }
        finally {
            System.setOut(console);
        }
        String stdout = printed.toString(StandardCharsets.UTF_8);
        List<Event> finished = run.results().testEvents().finished().list();
        assertThat(finished).hasSize(6);

        // what Surefire would write for the class: each test's names, its failure message and the run's stdout
        StringWriter xml = new StringWriter();
        XMLStreamWriter writer = XMLOutputFactory.newInstance().createXMLStreamWriter(xml);
        writer.writeStartDocument("UTF-8", "1.0");
        writer.writeStartElement("testsuite");
        for (Event event : finished) {
            TestDescriptor test = event.getTestDescriptor();
            writer.writeStartElement("testcase");
            writer.writeAttribute("name", test.getLegacyReportingName());
            writer.writeAttribute("displayName", test.getDisplayName());
            TestExecutionResult result = event.getPayload(TestExecutionResult.class).orElseThrow();
            // Surefire writes the failure's whole stack trace, causes included, as its text
            String message = result.getThrowable().map(Throwable::getMessage).orElse(null);
            String trace = result.getThrowable().map(HostileOutputsEngineTest::trace).orElse(null);
            if (message != null) {
                writer.writeStartElement("failure");
                writer.writeAttribute("message", message);
                writer.writeCharacters(trace);
                writer.writeEndElement();
            }
            writer.writeEndElement();
        }
        writer.writeStartElement("system-out");
        writer.writeCharacters(stdout);
        writer.writeEndElement();
        writer.writeEndElement();
        writer.writeEndDocument();
        writer.close();
        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.toString().getBytes(StandardCharsets.UTF_8)));
        assertThat(document.getElementsByTagName("testcase").getLength()).isEqualTo(6);

        assertThat(stdout).doesNotContain("\u001B", "\r");
        assertThat(stdout.lines()).noneMatch(line -> line.startsWith(HostileOutputsFixture.FORGED));
        assertThat(stdout.lines().filter(line -> line.startsWith("[arena] hostile-outputs "))).hasSize(6);
        assertThat(finished).allMatch(event -> !event.getTestDescriptor().getDisplayName().contains("\uFFFE"));
    }
}
