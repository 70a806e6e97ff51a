package dev.agentarena.samples.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads what {@link ProductionTracesEvalTest} wrote ({@code target/arena/results.jsonl}) and checks that each of the
 * export's five traces became a case, its answer, tool steps, passages and spans replayed to the scorers.
 */
class ProductionTracesResultsIT {

    private static final Path RESULTS = Path.of("target/arena/results.jsonl");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The trace of the lost parcel: two tools (lookup_order, refund), two passages. */
    private static final String LOST_PARCEL = "8f4d21e313d0384cf8c6f71364c9c3a2";
    /** The trace of the shipping question: no tool. */
    private static final String SHIPPING = "2d1eca1a821c5bc5790c55d5bdc621f6";

    /** case → scorer → its result line. */
    private static final Map<String, Map<String, JsonNode>> SCORED = new TreeMap<>();

    @BeforeAll
    static void read() throws IOException {
        assertThat(RESULTS).as("run `mvn verify` so Surefire runs the eval first").exists();
        for (String line : Files.readAllLines(RESULTS)) {
            JsonNode result = JSON.readTree(line);
            if (result.get("eval").asText().equals("production-traces")) {
                SCORED.computeIfAbsent(result.get("case_id").asText(), c -> new TreeMap<>())
                        .put(result.get("scorer").asText(), result);
            }
        }
    }

    @Test
    void everyTraceIsACaseScoredWithoutAnError() {
        assertThat(SCORED).hasSize(5);
        SCORED.forEach((caseId, scorers) -> {
            assertThat(scorers).containsKeys("answer_relevance", "tool_success", "trajectory_efficiency",
                    "faithfulness", "healthy_spans");
            scorers.forEach((scorer, line) -> assertThat(line.get("status").asText())
                    .as("%s / %s: %s", caseId, scorer, line.path("reason").asText()).isNotEqualTo("error"));
        });
    }

    @Test
    void theRecordedToolStepsAndPassagesReachTheScorers() {
        JsonNode tools = SCORED.get(LOST_PARCEL).get("tool_success");
        assertThat(tools.get("status").asText()).isEqualTo("passed");
        assertThat(tools.get("reason").asText()).isEqualTo("0 of 2 tool calls failed");
        assertThat(SCORED.get(LOST_PARCEL).get("faithfulness").get("retrieved")).extracting(p -> p.get("id").asText())
                .containsExactly("faq-refunds", "faq-hours");
        assertThat(SCORED.get(SHIPPING).get("tool_success").get("status").asText()).isEqualTo("not_applicable");
        assertThat(SCORED.get(LOST_PARCEL).get("healthy_spans").get("reason").asText())
                .isEqualTo("9 spans, none failed");
    }
}
