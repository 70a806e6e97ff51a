package dev.agentarena.samples.integrations.it;

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
 * Checks, after the Surefire run, that the traced Spring Boot 3.5 apps had their spans captured into every case: the
 * Spring AI 1.1 app of {@code TracedSupportDeskEvalTest} (the chat client's, the vector store's query and one per tool
 * the app ran) and the LangChain4j app of {@code TracedSupportAgentEvalTest} (a chat span per model call, from the
 * app's listener, which the routed model calls).
 */
class AppSpansIT {

    private static List<JsonNode> results(String eval, String scorer) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get("target/arena/results.jsonl"))) {
            JsonNode node = json.readTree(line);
            if (node.get("eval").asText().equals(eval) && node.get("scorer").asText().equals(scorer)) {
                lines.add(node);
            }
        }
        return lines;
    }

    @Test
    void everyCaseOfTheTracedSpringAiAppHasItsChatClientRetrievalAndToolSpans() throws IOException {
        List<JsonNode> lines = results("spring-ai-app-spans", "appSpans");

        assertThat(lines).hasSize(8).allSatisfy(line -> assertThat(line.get("status").asText())
                .as(line.get("case_id").asText() + ": " + line.get("reason").asText()).isEqualTo("passed"));
        assertThat(lines).anySatisfy(line -> assertThat(line.get("reason").asText()).contains("tools [lookup_order]"));
    }

    @Test
    void everyCaseOfTheTracedLangChain4jAppHasAChatSpanPerModelCallFromItsListener() throws IOException {
        List<JsonNode> lines = results("langchain4j-app-spans", "chatSpans");

        assertThat(lines).hasSize(8).allSatisfy(line -> assertThat(line.get("status").asText())
                .as(line.get("case_id").asText() + ": " + line.get("reason").asText()).isEqualTo("passed"));
        assertThat(lines).anySatisfy(line -> assertThat(line.get("reason").asText()).startsWith("3 chat spans for 3"));
    }
}
