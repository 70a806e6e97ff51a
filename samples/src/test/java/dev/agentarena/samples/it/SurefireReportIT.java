package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads what Surefire wrote when it ran the support-triage sample in the {@code test} phase of this same build.
 */
class SurefireReportIT {

    private static final Path REPORT = Paths.get("target/surefire-reports/"
            + "TEST-dev.agentarena.samples.triage.SupportTriageEvalTest.xml");

    private static List<Element> testcases;
    private static List<Element> summaries;

    @BeforeAll
    static void parse() throws Exception {
        assertThat(REPORT).as("run `mvn verify` so Surefire runs the samples first").exists();
        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(REPORT.toFile());
        NodeList nodes = document.getElementsByTagName("testcase");
        testcases = new ArrayList<>();
        summaries = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            Element testcase = (Element) nodes.item(i);
            // the summary tests after the models (samples/arena.yaml asks for a leaderboard test and one gate)
            boolean summary = testcase.getAttribute("name").matches("(leaderboard|gate |baseline).*");
            (summary ? summaries : testcases).add(testcase);
        }
    }

    @Test
    void summaryTestsFollowTheModelsAndTheGatePasses() {
        assertThat(summaries).extracting(t -> t.getAttribute("name"))
                .containsExactly("leaderboard", "gate min-accuracy.support-triage.classification >= 0.500",
                        "baseline");
        assertThat(summaries).allSatisfy(testcase -> {
            assertThat(testcase.getElementsByTagName("failure").getLength()).isZero();
            assertThat(testcase.getElementsByTagName("skipped").getLength()).isZero();
        });
        String leaderboard = summaries.get(0).getElementsByTagName("system-out").item(0).getTextContent();
        assertThat(leaderboard).contains("support-triage (2 models", "sim_small", "sim_large", "95% CI");
        String gate = summaries.get(1).getElementsByTagName("system-out").item(0).getTextContent();
        assertThat(gate).contains("gate passed: support-triage / sim_small / classification accuracy",
                "gate passed: support-triage / sim_large / classification accuracy");
        // samples/arena-baseline.json is committed: an unchanged run matches it
        String baseline = summaries.get(2).getElementsByTagName("system-out").item(0).getTextContent();
        assertThat(baseline).contains("baseline: 4 unchanged");
    }

    @Test
    void hasOneTestcasePerModelCaseAndScorer() {
        // 32 tickets x 2 models x 2 scorers (classification, valid_label).
        assertThat(testcases).hasSize(128);
        assertThat(testcases).allSatisfy(testcase -> assertThat(testcase.getAttribute("classname"))
                .isEqualTo("dev.agentarena.samples.triage.SupportTriageEvalTest"));
        List<String> names = testcases.stream().map(t -> t.getAttribute("name")).collect(Collectors.toList());
        assertThat(names).doesNotHaveDuplicates();
        // named alone, without the score, so that a rerun (rerunFailingTestsCount) has the name of the test it reruns
        assertThat(names).contains("sim_small/tickets[refund_request]/classification",
                "sim_large/tickets[survey]/valid_label");
    }

    @Test
    void failingScoresAreFailuresCarryingScoreAndReason() {
        List<Element> failures = testcases.stream().filter(t -> t.getElementsByTagName("failure").getLength() > 0)
                .collect(Collectors.toList());
        assertThat(failures).isNotEmpty();
        assertThat(failures).allSatisfy(testcase -> {
            Element failure = (Element) testcase.getElementsByTagName("failure").item(0);
            assertThat(failure.getAttribute("type")).isEqualTo("org.opentest4j.AssertionFailedError");
            assertThat(failure.getAttribute("message")).containsPattern("scored 0\\.00 for case '\\w+' on sim_\\w+: .+");
        });
        assertThat(testcases.stream().filter(t -> t.getElementsByTagName("error").getLength() > 0)).isEmpty();
    }

    @Test
    void everyTestcaseKeepsItsScoreLineInSystemOut() {
        assertThat(testcases).allSatisfy(testcase -> {
            String out = testcase.getElementsByTagName("system-out").item(0).getTextContent();
            // the first test's output may open with the cost estimate printed before the first model call
            assertThat(out).containsPattern("(?m)^\\[arena\\] support-triage ").contains(" score=", " status=",
                    " reason=\"");
        });
    }

    @Test
    void eachEvalClassIsOneTestsuiteInItsOwnFile() throws Exception {
        List<String> reports;
        try (java.util.stream.Stream<Path> files = Files.list(REPORT.getParent())) {
            reports = files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("TEST-") && n.endsWith(".xml"))
                    .sorted().collect(Collectors.toList());
        }
        assertThat(reports).contains("TEST-dev.agentarena.samples.quickstart.CapitalsEvalTest.xml",
                "TEST-dev.agentarena.samples.reports.OrderStatusEvalTest.xml",
                "TEST-dev.agentarena.samples.triage.SupportTriageEvalTest.xml");
        for (String report : reports) {
            Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(REPORT.getParent().resolve(report).toFile());
            assertThat(document.getDocumentElement().getTagName()).isEqualTo("testsuite");
            assertThat(document.getDocumentElement().getAttribute("name")).as(report)
                    .isEqualTo(report.substring("TEST-".length(), report.length() - ".xml".length()));
        }
    }

    @Test
    void systemOutCarriesTheMetricsOfScorersThatReportThem() throws Exception {
        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(REPORT.getParent()
                .resolve("TEST-dev.agentarena.samples.quickstart.CapitalsEvalTest.xml").toFile());
        NodeList nodes = document.getElementsByTagName("testcase");
        List<String> concise = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            Element testcase = (Element) nodes.item(i);
            if (testcase.getAttribute("name").endsWith("/concise")) {
                concise.add(testcase.getElementsByTagName("system-out").item(0).getTextContent());
            }
        }
        // 3 questions x 2 models; the concise scorer reports a word count.
        assertThat(concise).hasSize(6).allSatisfy(out -> assertThat(out).containsPattern("metrics=\\{words=\\d"));
    }

    @Test
    void resultsFileHoldsOneCompleteLinePerTestcase() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get("target/arena/results.jsonl"))) {
            lines.add(mapper.readTree(line));
        }
        List<JsonNode> triage = lines.stream().filter(l -> l.get("eval").asText().equals("support-triage"))
                .collect(Collectors.toList());
        assertThat(triage).hasSize(testcases.size());
        long failures = testcases.stream().filter(t -> t.getElementsByTagName("failure").getLength() > 0).count();
        assertThat(triage.stream().filter(l -> l.get("status").asText().equals("failed"))).hasSize((int) failures);
        assertThat(triage).allSatisfy(line -> {
            for (String field : List.of("eval", "model", "case_id", "scorer", "score", "passed", "status", "reason",
                    "metrics", "latency_ms", "tokens_in", "tokens_out", "cost_usd", "error")) {
                assertThat(line.has(field)).as(field).isTrue();
            }
        });
    }
}
