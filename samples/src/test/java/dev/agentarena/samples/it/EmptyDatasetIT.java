package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Reads what Surefire wrote for the empty-dataset sample ({@code failures/EmptyDatasetEvalTest}, run by the Surefire
 * execution {@code empty-dataset}): an empty dataset file is a failed test named after the file, not zero tests and a
 * green build.
 */
class EmptyDatasetIT {

    private static final Path REPORT = Paths.get("target/surefire-reports-empty-dataset/"
            + "TEST-dev.agentarena.samples.failures.EmptyDatasetEvalTest.xml");

    @Test
    void anEmptyDatasetFileIsAnErrorTestNamedAfterTheFile() throws Exception {
        assertThat(REPORT).as("run `mvn verify` so Surefire runs the samples first").exists();
        Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(REPORT.toFile())
                .getDocumentElement();
        assertThat(suite.getAttribute("tests")).isEqualTo("1");
        assertThat(suite.getAttribute("errors")).isEqualTo("1");

        NodeList testcases = suite.getElementsByTagName("testcase");
        assertThat(testcases.getLength()).isEqualTo(1);
        Element testcase = (Element) testcases.item(0);
        assertThat(testcase.getAttribute("classname")).isEqualTo("dev.agentarena.samples.failures.EmptyDatasetEvalTest");
        assertThat(testcase.getAttribute("name")).isEqualTo("sim_small/new-tickets[new-tickets.jsonl]/classification");
        NodeList errors = testcase.getElementsByTagName("error");
        assertThat(errors.getLength()).isEqualTo(1);
        Element error = (Element) errors.item(0);
        assertThat(error.getAttribute("type")).isEqualTo("dev.agentarena.junit.engine.datasets.DatasetRowException");
        assertThat(error.getAttribute("message")).isEqualTo("new-tickets.jsonl:1: no cases: the file is empty;"
                + " a dataset needs at least one case");
        String out = testcase.getElementsByTagName("system-out").item(0).getTextContent();
        assertThat(out).contains("[arena] new-tickets sim_small new-tickets[new-tickets.jsonl]/classification",
                "status=error");
    }

    @Test
    void theFailuresPageQuotesWhatSurefireWrote() throws Exception {
        String page = Files.readString(Paths.get("../docs/guides/failures.md"), StandardCharsets.UTF_8);
        Element error = (Element) DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(REPORT.toFile())
                .getElementsByTagName("error").item(0);

        assertThat(page).contains("`" + error.getAttribute("message") + "`",
                "`sim_small/new-tickets[new-tickets.jsonl]/classification`");
    }

    @Test
    void theResultsFileHoldsTheErrorToo() throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        ObjectMapper mapper = new ObjectMapper();
        for (String line : Files.readAllLines(Paths.get("target/arena-empty-dataset/results.jsonl"),
                StandardCharsets.UTF_8)) {
            lines.add(mapper.readTree(line));
        }

        assertThat(lines).singleElement().satisfies(line -> {
            assertThat(line.get("eval").asText()).isEqualTo("new-tickets");
            assertThat(line.get("case_id").asText()).isEqualTo("new-tickets.jsonl");
            assertThat(line.get("status").asText()).isEqualTo("error");
            assertThat(line.get("error").asText()).contains("new-tickets.jsonl:1: no cases: the file is empty");
        });
    }
}
