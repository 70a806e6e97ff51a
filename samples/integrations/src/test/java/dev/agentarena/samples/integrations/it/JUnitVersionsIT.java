package dev.agentarena.samples.integrations.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestEngine;

/**
 * The LangChain4j and Spring AI samples run through Surefire on JUnit 5.14 (this module) and on JUnit 6
 * ({@code junit6/}, the same test sources): each run checks that it ran on the JUnit it says, and the JUnit 6 run
 * that every test of the JUnit 5 run is there with the same name and outcome, and no other.
 */
class JUnitVersionsIT {

    private static final Pattern TEST_CASE = Pattern.compile(
            "<testcase name=\"([^\"]*)\" classname=\"([^\"]*)\"[^>]*?(/>|>(.*?)</testcase>)", Pattern.DOTALL);
    private static final List<String> REPORTS = List.of("surefire-reports", "surefire-reports-replay");

    @Test
    void theSamplesRanOnTheJUnitOfThisModule() {
        String expectedMajor = System.getProperty("arena.samples.junit-major", "5");
        String platform = TestEngine.class.getPackage().getImplementationVersion();
        assertThat(platform).as("the JUnit Platform on the class path").startsWith(expectedMajor.equals("5")
                ? "1." : expectedMajor + ".");
    }

    @Test
    void everyEvalRanAndEveryTestHasItsOutcome() throws IOException {
        Map<String, String> outcomes = outcomes(Paths.get("target"));
        assertThat(outcomes).as("tests in " + Paths.get("target").toAbsolutePath()).hasSizeGreaterThan(30);
        assertThat(outcomes.keySet()).anyMatch(test -> test.contains("SupportAssistantEvalTest"))
                .anyMatch(test -> test.contains("SpringAiEvaluatorsEvalTest"))
                .anyMatch(test -> test.contains("AnswerMeaningEvalTest"))
                .anyMatch(test -> test.contains("SupportBotEvalTest"));
        // the samples score below 1.0 on purpose: both outcomes are there, and no test errs
        assertThat(outcomes.values()).contains("passed", "failed").doesNotContain("error");
    }

    @Test
    void theSameTestsWithTheSameOutcomesAsTheOtherJUnit() throws IOException {
        String other = System.getProperty("arena.samples.compare-with");
        if (other == null) {
            return; // the JUnit 5 run is the reference; the JUnit 6 module compares itself with it
        }
        Map<String, String> here = outcomes(Paths.get("target"));
        Map<String, String> reference = outcomes(Paths.get(other));
        List<String> differences = new ArrayList<>();
        reference.forEach((test, outcome) -> {
            if (!here.containsKey(test)) {
                differences.add("missing here: " + test);
            }
            else if (!here.get(test).equals(outcome)) {
                differences.add(test + ": " + here.get(test) + " here, " + outcome + " in " + other);
            }
        });
        here.keySet().stream().filter(test -> !reference.containsKey(test))
                .forEach(test -> differences.add("only here: " + test));
        assertThat(differences).as("tests that differ from the run in " + other).isEmpty();
        assertThat(here).hasSameSizeAs(reference);
    }

    /** Per test ({@code directory | class | name}), its outcome in Surefire's XML reports below {@code target}. */
    private static Map<String, String> outcomes(Path target) throws IOException {
        Map<String, String> outcomes = new TreeMap<>();
        for (String reports : REPORTS) {
            Path directory = target.resolve(reports);
            assertThat(directory).as("Surefire's reports").isDirectory();
            try (Stream<Path> files = Files.list(directory)) {
                for (Path file : files.filter(f -> f.getFileName().toString().startsWith("TEST-")).sorted().toList()) {
                    Matcher matcher = TEST_CASE.matcher(Files.readString(file));
                    while (matcher.find()) {
                        String body = matcher.group(4) == null ? "" : matcher.group(4);
                        String outcome = body.contains("<error") ? "error" : body.contains("<failure") ? "failed"
                                : body.contains("<skipped") ? "skipped" : "passed";
                        outcomes.put(reports + " | " + matcher.group(2) + " | " + matcher.group(1), outcome);
                    }
                }
            }
        }
        return outcomes;
    }
}
