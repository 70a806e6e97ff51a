package dev.agentarena.junit.engine.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsWriterTest {

    @TempDir
    Path dir;

    @Test
    void halfASurrogatePairBecomesAReplacementCharacterAndEveryLaterLineIsWhole() throws Exception {
        // a reason or output cut inside an emoji: the UTF-8 encoder refuses the lone half
        String cut = "thumbs \uD83D";
        try (ResultsWriter writer = ResultsWriter.open(dir)) {
            writer.write(record("a", cut, "out \uDC4D put"));
            writer.write(record("b", "fine 👍", "ok"));
        }

        List<String> lines = Files.readAllLines(dir.resolve("results.jsonl"), StandardCharsets.UTF_8);
        assertThat(lines).hasSize(2);
        ObjectMapper json = new ObjectMapper();
        JsonNode first = json.readTree(lines.get(0));
        assertThat(first.get("reason").asText()).isEqualTo("thumbs \uFFFD");
        assertThat(first.get("output").asText()).isEqualTo("out \uFFFD put");
        assertThat(json.readTree(lines.get(1)).get("reason").asText()).isEqualTo("fine 👍");
    }

    private static ResultRecord record(String caseId, String reason, String output) {
        return new ResultRecord("eval", "sim_small", "cases", caseId, "exact_match", "v1", "eval-exact-match", 0, 0.0,
                false, ResultRecord.FAILED, reason, Map.of(), 1L, 0, 0, 0.0, false, 1.0, List.of(), null, output);
    }
}
