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
 * Checks, after the Surefire run, that on Spring AI 2.0 the documents a {@code RetrievalAugmentationAdvisor} put in
 * the response of the engine's {@code ChatClient} became the cases' passages ({@code FaqAdvisorEvalTest}, shared with
 * samples/integrations, which runs it on 1.1), with their ids, scores and metadata.
 */
class RetrievalCaptureIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theAdvisorsDocumentsAreEachCasesPassagesOnSpringAi2() throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get("target/arena/results.jsonl"))) {
            JsonNode node = JSON.readTree(line);
            if (node.get("eval").asText().equals("faq-retrieval-spring-ai")) {
                lines.add(node);
            }
        }

        assertThat(lines).hasSize(2).allSatisfy(line -> {
            assertThat(line.get("status").asText()).isEqualTo("passed");
            JsonNode first = line.get("retrieved").get(0);
            assertThat(first.get("id").asText()).isEqualTo(line.get("case_id").asText().equals("returns")
                    ? "faq-returns" : "faq-shipping");
            assertThat(first.get("rank").asInt()).isEqualTo(1);
            assertThat(first.get("score").asDouble()).isPositive();
            assertThat(first.get("source").get("file").asText()).endsWith(".md");
        });
    }
}
