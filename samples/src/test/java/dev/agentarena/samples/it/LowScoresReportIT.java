package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads what the {@code low-scores-report} Surefire execution of this build left: the quick-start sample run with
 * {@code arena.low-scores=report} and {@code allure-junit-platform} on the class path. Its low score is a passing
 * Surefire test whose name keeps the score and the mark, a {@code "passed": false} results line, and a failed Allure
 * result with the low score's message: visible everywhere, failing nothing.
 */
class LowScoresReportIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aLowScorePassesItsTestAndStaysFailedInTheResultsAndInAllure() throws Exception {
        List<JsonNode> results = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get("target/arena-low-scores-report/results.jsonl"),
                StandardCharsets.UTF_8)) {
            results.add(JSON.readTree(line));
        }
        List<JsonNode> low = results.stream().filter(r -> r.get("status").asText().equals("failed")).toList();
        assertThat(low).as("the quick start scores low on one case").isNotEmpty()
                .allSatisfy(r -> assertThat(r.get("passed").asBoolean()).isFalse());

        NodeList testcases = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(Paths.get("target/surefire-reports-low-scores-report/"
                        + "TEST-dev.agentarena.samples.quickstart.CapitalsEvalTest.xml").toFile())
                .getElementsByTagName("testcase");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < testcases.getLength(); i++) {
            Element testcase = (Element) testcases.item(i);
            assertThat(testcase.getElementsByTagName("failure").getLength() + testcase.getElementsByTagName("error")
                    .getLength()).as(testcase.getAttribute("name")).isZero();
            names.add(testcase.getAttribute("name"));
        }
        for (JsonNode record : low) {
            assertThat(names).anyMatch(name -> name.startsWith(record.get("model").asText() + "/questions["
                    + record.get("case_id").asText() + "]/" + record.get("scorer").asText() + " 0.00 (low)"));
        }

        Map<String, JsonNode> allure = new HashMap<>();
        try (Stream<Path> files = Files.list(Paths.get("target/allure-results-low-scores-report"))) {
            for (Path file : files.filter(f -> f.toString().endsWith("-result.json")).toList()) {
                JsonNode result = JSON.readTree(file.toFile());
                for (JsonNode label : result.path("labels")) {
                    if (label.path("name").asText().equals("junit.platform.uniqueid")
                            && label.path("value").asText().contains("[scorer:")) {
                        allure.put(label.path("value").asText(), result);
                    }
                }
            }
        }
        assertThat(allure).hasSameSizeAs(results);
        for (JsonNode record : results) {
            String id = "[model:" + record.get("model").asText() + "]/[case:" + record.get("case_id").asText()
                    + "]/[scorer:" + record.get("scorer").asText() + "]";
            JsonNode result = allure.entrySet().stream().filter(e -> e.getKey().endsWith(id)).map(Map.Entry::getValue)
                    .findFirst().orElseThrow(() -> new AssertionError("no Allure result ends with " + id));
            if (record.get("status").asText().equals("failed")) {
                assertThat(result.path("status").asText()).as(id).isEqualTo("failed");
                assertThat(result.path("statusDetails").path("message").asText()).as(id).isEqualTo(
                        record.get("scorer").asText() + " scored 0.00 for case '" + record.get("case_id").asText()
                                + "' on " + record.get("model").asText() + ": " + record.get("reason").asText());
            }
            else {
                assertThat(result.path("status").asText()).as(id).isEqualTo("passed");
            }
        }
    }
}
