package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * Issue 24, point 8: the README's quick-start project with the JUnit that Spring Boot 3.5 manages (5.12, JUnit
 * Platform 1.12) instead of 5.14, and a plain Jupiter test of the team's beside the eval. The engine used to fail to
 * load with a {@code ServiceConfigurationError}, whose cause only Surefire's dump file showed, and took the team's
 * own tests down with it; now the team's test runs and passes, and the evals fail with one message that names the
 * versions found and the fix, the message the Spring guide quotes.
 */
class OldJUnitPlatformIT {

    private static final String OLD_JUNIT = "5.12.2";

    private static Path project;

    @BeforeAll
    static void theQuickStartOnJUnit512WithATestOfTheTeams() throws Exception {
        String pom = Readme.block("quickstart-pom", "xml");
        assertThat(pom).contains("<version>5.14.4</version>");
        pom = pom.replace("<version>5.14.4</version>", "<version>" + OLD_JUNIT + "</version>")
                .replace("\n  <dependencies>\n", "\n  <dependencies>\n    <dependency>\n      <groupId>org.junit.jupiter"
                        + "</groupId>\n      <artifactId>junit-jupiter</artifactId>\n      <scope>test</scope>\n"
                        + "    </dependency>\n");
        String eval = Readme.block("quickstart", "java");
        Matcher declared = Pattern.compile("(?m)^package ([\\w.]+);").matcher(eval);
        assertThat(declared.find()).isTrue();
        project = Files.createTempDirectory("arena-old-junit-");
        Files.writeString(project.resolve("pom.xml"), pom, StandardCharsets.UTF_8);
        Path sources = project.resolve("src/test/java").resolve(declared.group(1).replace('.', '/'));
        Files.createDirectories(sources);
        Files.writeString(sources.resolve("CapitalsEvalTest.java"), eval, StandardCharsets.UTF_8);
        Files.writeString(sources.resolve("TeamTest.java"), "package " + declared.group(1) + ";\n\n"
                + "import org.junit.jupiter.api.Assertions;\nimport org.junit.jupiter.api.Test;\n\n"
                + "class TeamTest {\n\n    @Test\n    void stillRuns() {\n        Assertions.assertEquals(4, 2 + 2);\n"
                + "    }\n}\n", StandardCharsets.UTF_8);
    }

    @AfterAll
    static void deleteTheProject() {
        ScratchMaven.delete(project);
    }

    @Test
    void theTeamsTestsRunAndTheEvalsFailNamingTheVersionsAndTheFix() throws Exception {
        ScratchMaven.Run run = ScratchMaven.mvn(project, "old-junit-platform", "test");

        String message = "Agent Arena needs JUnit Platform 1.14 or later (JUnit 5.14+ or JUnit 6), but this run has "
                + "JUnit Platform 1.12.2 (JUnit Jupiter " + OLD_JUNIT + ")";
        assertThat(run.output()).as("%s", run).contains(message)
                .contains("add <junit-jupiter.version>5.14.4</junit-jupiter.version> to your pom's <properties>")
                .doesNotContain("ServiceConfigurationError");
        Path report = project.resolve("target/surefire-reports/TEST-" + Readme.block("quickstart", "java")
                .lines().filter(line -> line.startsWith("package ")).findFirst().orElseThrow()
                .replaceAll("package (.*);", "$1") + ".TeamTest.xml");
        assertThat(report).as("the team's own test ran").exists();
        Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile())
                .getDocumentElement();
        assertThat(suite.getAttribute("tests")).isEqualTo("1");
        assertThat(suite.getAttribute("failures")).isEqualTo("0");
        assertThat(suite.getAttribute("errors")).isEqualTo("0");
        Path evalReport = Paths.get(report.toString().replace(".TeamTest.xml", ".CapitalsEvalTest.xml"));
        assertThat(evalReport).as("the eval is reported as one error").exists();
        Element evalSuite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(evalReport.toFile())
                .getDocumentElement();
        assertThat(evalSuite.getAttribute("tests")).isEqualTo("1");
        assertThat(evalSuite.getAttribute("errors")).isEqualTo("1");
        assertThat(((Element) evalSuite.getElementsByTagName("error").item(0)).getAttribute("message"))
                .startsWith(message);
        assertThat(run.succeeded()).as("the build fails on the eval's error").isFalse();

        String guide = Files.readString(Paths.get("../docs/guides/spring.md"), StandardCharsets.UTF_8)
                .replaceAll("\\s*\\n\\s*", " ");
        assertThat(guide).as("docs/guides/spring.md quotes the message users see").contains(message);
    }
}
