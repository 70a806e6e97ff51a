package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The README's quick start, pasted into an empty directory (its pom and its eval class, nothing else) and built there
 * by this machine's Maven with its default plugin versions for whatever the pom does not pin, against the engine this
 * build made (see {@link ScratchMaven}). As pasted it runs the eval's twelve tests and succeeds, its low score
 * reported; and under the same low score the build fails only when a gate fails, or when
 * {@code arena.low-scores=fail} asks every low score to fail it. Then the console-launcher recipe of
 * {@code docs/guides/console-launcher.md} runs the same project without Surefire, with the JUnit 5 and the JUnit 6
 * launcher, and the scorer listing's pom snippet of {@code docs/architecture/scoring.md} lists its scorers.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QuickStartProjectIT {

    private static final String EVAL = "dev.agentarena.samples.quickstart.CapitalsEvalTest";
    private static final String REPORT = "target/surefire-reports/TEST-" + EVAL + ".xml";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path project;

    @BeforeAll
    static void pasteTheQuickStartIntoAnEmptyDirectory() throws IOException {
        String pom = Readme.block("quickstart-pom", "xml");
        String eval = Readme.block("quickstart", "java");
        assertThat(pom).as("the README's pom names the engine of this build")
                .contains("<version>" + ScratchMaven.projectVersion() + "</version>");
        Matcher declared = Pattern.compile("(?m)^package ([\\w.]+);").matcher(eval);
        assertThat(declared.find()).as("the quick-start class declares its package").isTrue();

        project = Files.createTempDirectory("arena-quickstart-");
        Files.writeString(project.resolve("pom.xml"), pom, StandardCharsets.UTF_8);
        Path source = project.resolve("src/test/java").resolve(declared.group(1).replace('.', '/'))
                .resolve("CapitalsEvalTest.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, eval, StandardCharsets.UTF_8);
    }

    @AfterAll
    static void deleteTheProject() {
        ScratchMaven.delete(project);
    }

    @Test
    @Order(1)
    void asPastedMavenRunsTheEvalsTestsAndReportsItsLowScoreWithoutFailingTheBuild() throws Exception {
        ScratchMaven.Run run = ScratchMaven.mvn(project, "quickstart-as-pasted", "test");

        assertThat(run.succeeded()).as("%s", run).isTrue();
        assertThat(run.output()).contains("Tests run: 12, Failures: 0, Errors: 0, Skipped: 0");
        List<Element> testcases = testcases();
        // two models x three questions x two scorers (contains, concise)
        assertThat(testcases).hasSize(12).allSatisfy(testcase -> assertThat(outcome(testcase)).isEqualTo("passed"));

        List<JsonNode> results = results();
        assertThat(results).hasSize(12);
        List<JsonNode> low = results.stream().filter(r -> !r.get("passed").asBoolean()).toList();
        assertThat(low).as("a low score, reported").isNotEmpty().allSatisfy(r -> assertThat(r.get("status").asText())
                .isEqualTo("failed"));
        // its test passed, named by model, dataset, case and scorer, its score line saying it scored low
        JsonNode first = low.get(0);
        String name = first.get("model").asText() + "/questions[" + first.get("case_id").asText() + "]/"
                + first.get("scorer").asText();
        assertThat(testcases).anySatisfy(testcase -> {
            assertThat(testcase.getAttribute("name")).isEqualTo(name);
            assertThat(testcase.getElementsByTagName("system-out").item(0).getTextContent())
                    .contains(" score=0.00 status=failed passed=false");
        });
    }

    @Test
    @Order(2)
    void everyLowScoreFailsTheBuildWhenLowScoresFail() throws Exception {
        ScratchMaven.Run run = ScratchMaven.mvn(project, "quickstart-low-scores-fail", "test",
                "-Darena.low-scores=fail");

        long low = results().stream().filter(r -> !r.get("passed").asBoolean()).count();
        assertThat(run.exitCode()).as("%s", run).isNotZero();
        assertThat(run.output()).contains("BUILD FAILURE", "Tests run: 12, Failures: " + low + ", Errors: 0");
        assertThat(testcases()).filteredOn(testcase -> outcome(testcase).equals("failure")).hasSize((int) low);
    }

    @Test
    @Order(3)
    void underReportOnlyAFailedGateFailsTheBuild() throws Exception {
        // model accuracy: sim_small 1.000; sim_large 0.833 (its low score halves one case)
        ScratchMaven.Run passing = ScratchMaven.mvn(project, "quickstart-gate-passes", "test",
                "-Darena.gates.min-accuracy=0.8");
        assertThat(passing.succeeded()).as("%s", passing).isTrue();
        assertThat(passing.output()).contains("Tests run: 13, Failures: 0, Errors: 0");

        ScratchMaven.Run failing = ScratchMaven.mvn(project, "quickstart-gate-fails", "test",
                "-Darena.gates.min-accuracy=0.9");
        assertThat(failing.exitCode()).as("%s", failing).isNotZero();
        assertThat(failing.output()).contains("BUILD FAILURE", "Tests run: 13, Failures: 1, Errors: 0",
                "gate failed: capitals / sim_large accuracy 0.833 < 0.900 (min-accuracy)");
        List<Element> failed = testcases().stream().filter(testcase -> !outcome(testcase).equals("passed")).toList();
        assertThat(failed).singleElement().satisfies(testcase -> {
            assertThat(testcase.getAttribute("name")).isEqualTo("gate min-accuracy >= 0.900");
            assertThat(outcome(testcase)).isEqualTo("failure");
        });
    }

    /**
     * The recipe of {@code docs/guides/console-launcher.md}, command for command: the test class path from Maven
     * without the JUnit jars, then each standalone launcher (copied by this build to {@code target/console-launchers},
     * as the recipe downloads it) with that class path.
     */
    @Test
    @Order(4)
    void theConsoleLauncherRecipeRunsTheEvalsWithJUnit5And6() throws Exception {
        String recipe = Files.readString(Paths.get("../docs/guides/console-launcher.md"), StandardCharsets.UTF_8);
        List<String> classPath = List.of("-q", "test-compile",
                "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath",
                "-Dmdep.outputFile=target/test-classpath.txt", "-DincludeScope=test",
                "-DexcludeGroupIds=org.junit.platform,org.junit.jupiter,org.opentest4j,org.apiguardian");
        assertThat(recipe.replaceAll("\\s*\\\\\\n\\s*", " ")).contains("mvn " + String.join(" ", classPath));
        ScratchMaven.Run build = ScratchMaven.mvn(project, "quickstart-build-classpath",
                classPath.toArray(String[]::new));
        assertThat(build.exitCode()).as("%s", build).isZero();
        String dependencies = Files.readString(project.resolve("target/test-classpath.txt")).strip();
        assertThat(dependencies).contains("arena-junit-engine").doesNotContain("junit-platform-engine");

        for (String launcher : List.of("console-junit5.jar", "console-junit6.jar")) {
            List<String> command = new ArrayList<>(List.of(ScratchMaven.java(), "-jar",
                    Paths.get("target/console-launchers", launcher).toAbsolutePath().toString(), "execute",
                    "--class-path", "target/test-classes" + java.io.File.pathSeparator + dependencies,
                    "--scan-class-path", "target/test-classes", "--config", "arena.low-scores=report"));
            assertThat(recipe.replaceAll("\\s*\\\\\\n\\s*", " ")).contains(
                    "--class-path \"target/test-classes:$(cat target/test-classpath.txt)\" --scan-class-path "
                            + "target/test-classes --config arena.low-scores=report");
            ScratchMaven.Run run = ScratchMaven.run(project, "quickstart-" + launcher.replace(".jar", ""), command);
            assertThat(run.exitCode()).as("%s", run).isZero();
            assertThat(run.output()).containsPattern("12 tests successful").containsPattern("0 tests failed")
                    .contains("contains 0.00 (low)");
        }
    }

    /**
     * The scorer listing's pom snippet of {@code docs/architecture/scoring.md}, added as it stands to the quick-start
     * pom: the listing names the builtins, the catalogue and the eval's own {@code @Scorer} method.
     */
    @Test
    @Order(5)
    void theScorerListingSnippetListsTheEvalsScorers() throws Exception {
        String plugin = Readme.block(Paths.get("../docs/architecture/scoring.md"), "scorer-listing-pom", "xml");
        Path pom = project.resolve("pom.xml");
        String original = Files.readString(pom, StandardCharsets.UTF_8);
        assertThat(original).contains("</plugins>");
        Files.writeString(pom, original.replace("</plugins>", plugin + "</plugins>"), StandardCharsets.UTF_8);
        try {
            ScratchMaven.Run run = ScratchMaven.mvn(project, "quickstart-scorer-listing", "-q", "test-compile",
                    "exec:java@scorers");
            assertThat(run.exitCode()).as("%s", run).isZero();
            assertThat(run.output()).containsPattern("(?m)^contains +builtin ")
                    .containsPattern("(?m)^applies_when +catalogue ")
                    .containsPattern("(?m)^concise +custom +\\w+ +method CapitalsEvalTest#concise");
        }
        finally {
            Files.writeString(pom, original, StandardCharsets.UTF_8);
        }
    }

    private static List<Element> testcases() throws Exception {
        NodeList nodes = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(project.resolve(REPORT).toFile()).getElementsByTagName("testcase");
        List<Element> testcases = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            testcases.add((Element) nodes.item(i));
        }
        return testcases;
    }

    private static String outcome(Element testcase) {
        for (String kind : List.of("failure", "error", "skipped")) {
            if (testcase.getElementsByTagName(kind).getLength() > 0) {
                return kind;
            }
        }
        return "passed";
    }

    private static List<JsonNode> results() throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(project.resolve("target/arena/results.jsonl"), StandardCharsets.UTF_8)) {
            lines.add(JSON.readTree(line));
        }
        return lines;
    }
}
