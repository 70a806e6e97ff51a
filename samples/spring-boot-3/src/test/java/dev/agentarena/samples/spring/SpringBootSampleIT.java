package dev.agentarena.samples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestEngine;
import org.springframework.boot.SpringBootVersion;
import org.w3c.dom.Element;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Checks what the Surefire run of this sample left behind (Surefire ignores the eval's low scores): the eval ran on
 * Spring Boot with every case routed by the application's own bean through the model under evaluation, and the
 * plain Jupiter tests passed, on the Spring Boot and JUnit versions this build is for.
 */
class SpringBootSampleIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void runsOnTheSpringBootAndJUnitVersionsOfThisBuild() {
        assertThat(SpringBootVersion.getVersion()).startsWith(System.getProperty("expected.spring-boot"));
        assertThat(TestEngine.class.getPackage().getImplementationVersion())
                .startsWith(System.getProperty("expected.junit-platform"));
    }

    @Test
    void everyCaseOfBothModelsWasRoutedByTheApplicationThroughTheEvaluatedModel() throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get("target/arena/results.jsonl"))) {
            lines.add(JSON.readTree(line));
        }

        assertThat(lines).hasSize(16);
        assertThat(lines).extracting(line -> line.get("model").asText()).containsOnly("sim_small", "sim_large");
        for (JsonNode line : lines) {
            String id = line.get("model").asText() + "/" + line.get("case_id").asText();
            assertThat(line.get("eval").asText()).isEqualTo("ticket-routing");
            assertThat(line.get("status").asText()).as(id).isIn("passed", "failed");
            assertThat(line.get("output").asText()).as(id).isIn(TicketRouter.QUEUES);
            // the app's chat model went through the engine's model handle: counted and priced
            assertThat(line.get("tokens_in").asLong()).as(id).isPositive();
            assertThat(line.get("cost_usd").asDouble()).as(id).isPositive();
        }
        assertThat(lines).filteredOn(line -> line.get("status").asText().equals("passed")).hasSizeGreaterThan(8);
    }

    @Test
    void theSpringGuideShowsThisEvalWordForWord() throws IOException {
        // both sample modules (spring-boot-3, spring-boot-4) sit next to each other under samples/
        String guide = Files.readString(Paths.get("../../docs/guides/spring.md"));
        int begin = guide.indexOf("<!-- spring-sample:begin -->");
        int end = guide.indexOf("<!-- spring-sample:end -->");
        assertThat(begin).isNotNegative();
        assertThat(end).isGreaterThan(begin);
        String block = guide.substring(begin, end);
        String code = block.substring(block.indexOf("```java") + "```java".length(), block.lastIndexOf("```")).strip();

        assertThat(code).isEqualTo(Files.readString(Paths.get(
                "../spring-boot-3/src/test/java/dev/agentarena/samples/spring/TicketRoutingEvalTest.java")).strip());
    }

    @Test
    void theJupiterTestsOfTheAppPassedInTheSameRun() throws Exception {
        Path report = Paths.get("target/surefire-reports/TEST-dev.agentarena.samples.spring.TicketRouterTest.xml");
        Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile())
                .getDocumentElement();

        assertThat(suite.getAttribute("tests")).isEqualTo("3");
        assertThat(suite.getAttribute("failures")).isEqualTo("0");
        assertThat(suite.getAttribute("errors")).isEqualTo("0");
    }
}
