package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Issue 28, point 8: Surefire's {@code rerunFailingTestsCount} reruns a failed test and, when the rerun passes,
 * reports a flake, but only when both executions have the same name: Surefire tells a JUnit Platform test without a
 * method source by its class and display name. The README's quick-start pom, with {@code rerunFailingTestsCount=1}
 * and low scores failing, runs an eval whose {@code flaky} case is answered wrong the first time (its task leaves a
 * marker file) and right on the rerun. Surefire reports one flake and the build succeeds; the leaderboard agrees (the
 * rerun's pass replaced the failure). With names that carry the score ({@code arena.display-names=full}) the rerun
 * counts as another test, and the build fails: what this point fixed.
 */
class SurefireRerunIT {

    private static final String EVAL = "com.example.flaky.FlakyEvalTest";
    private static final String FLAKY = "sim_small/cases[flaky]/exact_match";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path project;

    @BeforeAll
    static void theQuickStartPomWithRerunsAndAFlakyEval() throws IOException {
        String pom = Readme.block("quickstart-pom", "xml");
        String report = "<arena.low-scores>report</arena.low-scores>";
        assertThat(pom).contains(report);
        pom = pom.replace(report, "<arena.low-scores>fail</arena.low-scores>").replace("<systemPropertyVariables>",
                "<rerunFailingTestsCount>1</rerunFailingTestsCount>\n          <systemPropertyVariables>");
        project = Files.createTempDirectory("arena-rerun-");
        Files.writeString(project.resolve("pom.xml"), pom, StandardCharsets.UTF_8);
        Path source = project.resolve("src/test/java/com/example/flaky/FlakyEvalTest.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, """
                package com.example.flaky;

                import java.io.IOException;
                import java.nio.file.Files;
                import java.nio.file.Path;
                import java.util.stream.Stream;

                import dev.agentarena.junit.Eval;
                import dev.agentarena.junit.EvalCase;
                import dev.agentarena.junit.EvalDataset;
                import dev.agentarena.junit.UseModels;
                import dev.agentarena.junit.Task;

                @Eval(value = "flaky", scorers = "exact_match")
                @UseModels("sim_small")
                class FlakyEvalTest {

                    @EvalDataset
                    Stream<EvalCase> cases() {
                        return Stream.of(EvalCase.of("steady", "Say yes", "yes"),
                                EvalCase.of("flaky", "Say yes", "yes"));
                    }

                    @Task
                    String answer(EvalCase evalCase) throws IOException {
                        // wrong the first time only: Surefire's rerun runs in the same directory
                        Path marker = Path.of("target", "flaky-answered-once");
                        if (evalCase.id().equals("flaky") && Files.notExists(marker)) {
                            Files.createFile(marker);
                            return "no";
                        }
                        return "yes";
                    }
                }
                """, StandardCharsets.UTF_8);
    }

    @AfterAll
    static void deleteTheProject() {
        ScratchMaven.delete(project);
    }

    @Test
    void aFailedEvalThatPassesOnItsRerunIsAFlakeAndTheLeaderboardCountsThePass() throws Exception {
        Files.deleteIfExists(project.resolve("target/flaky-answered-once"));
        ScratchMaven.Run run = ScratchMaven.mvn(project, "rerun-flake", "test");

        assertThat(run.succeeded()).as("%s", run).isTrue();
        assertThat(run.output()).contains("Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Flakes: 1",
                "Flakes: ", EVAL + "." + FLAKY, "Run 1: ", "exact_match scored 0.00 for case 'flaky' on sim_small",
                "Run 2: PASS");
        List<Element> testcases = testcases();
        assertThat(testcases).extracting(testcase -> testcase.getAttribute("name"))
                .containsExactlyInAnyOrder("sim_small/cases[steady]/exact_match", FLAKY);
        Element flaky = testcases.stream().filter(testcase -> testcase.getAttribute("name").equals(FLAKY))
                .findFirst().orElseThrow();
        assertThat(flaky.getElementsByTagName("flakyFailure").getLength()).isEqualTo(1);
        assertThat(flaky.getElementsByTagName("failure").getLength()).isZero();

        // the results file keeps both executions; the leaderboard counts the rerun's pass, as Surefire does
        List<JsonNode> results = new ArrayList<>();
        for (String line : Files.readAllLines(project.resolve("target/arena/results.jsonl"))) {
            results.add(JSON.readTree(line));
        }
        assertThat(results).filteredOn(result -> result.get("case_id").asText().equals("flaky"))
                .extracting(result -> result.get("status").asText()).containsExactly("failed", "passed");
        JsonNode model = JSON.readTree(project.resolve("target/arena/leaderboard.json").toFile()).path("evals").get(0)
                .path("models").get(0);
        assertThat(model.path("cases").asInt()).isEqualTo(2);
        assertThat(model.path("accuracy").path("value").asDouble()).isEqualTo(1.0);
    }

    @Test
    void namesThatCarryTheScoreMakeTheRerunAnotherTest() throws Exception {
        Files.deleteIfExists(project.resolve("target/flaky-answered-once"));
        ScratchMaven.Run run = ScratchMaven.mvn(project, "rerun-scored-names", "test", "-Darena.display-names=full");

        assertThat(run.exitCode()).as("%s", run).isNotZero();
        assertThat(run.output()).contains("BUILD FAILURE", "Tests run: 3, Failures: 1, Errors: 0, Skipped: 0");
    }

    private static List<Element> testcases() throws Exception {
        NodeList nodes = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(project.resolve("target/surefire-reports/TEST-" + EVAL + ".xml").toFile())
                .getElementsByTagName("testcase");
        List<Element> testcases = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            testcases.add((Element) nodes.item(i));
        }
        return testcases;
    }
}
