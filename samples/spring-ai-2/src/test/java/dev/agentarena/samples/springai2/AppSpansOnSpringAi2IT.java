package dev.agentarena.samples.springai2;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Checks, after the Surefire run, that on Spring Boot 4 and Spring AI 2.0 the traced app of
 * {@code TracedSupportDeskEvalTest} (shared with samples/integrations, which runs it on Boot 3.5 and Spring AI 1.1)
 * had its spans captured into every case through {@code spring-boot-starter-opentelemetry}: its scorer passes only
 * when a case's spans hold the chat client's, the vector store's query and one per tool the app ran, here from the
 * client's tool calling advisor.
 */
class AppSpansOnSpringAi2IT {

    @Test
    void everyCaseOfTheTracedAppHasItsChatClientRetrievalAndToolSpans() throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get("target/arena/results.jsonl"))) {
            JsonNode node = json.readTree(line);
            if (node.get("eval").asText().equals("spring-ai-app-spans") && node.get("scorer").asText()
                    .equals("appSpans")) {
                lines.add(node);
            }
        }

        assertThat(lines).hasSize(8).allSatisfy(line -> assertThat(line.get("status").asText())
                .as(line.get("case_id").asText() + ": " + line.get("reason").asText()).isEqualTo("passed"));
        assertThat(lines).anySatisfy(line -> assertThat(line.get("reason").asText()).contains("tools [lookup_order]"));
    }
}
