package dev.agentarena.junit.engine.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

class ResultsFileTest {

    @TempDir
    Path dir;

    @Test
    void halfASurrogatePairBecomesAReplacementCharacterAndEveryLaterLineIsWhole() throws Exception {
        // a reason or output cut inside an emoji: the UTF-8 encoder refuses the lone half
        String cut = "thumbs \uD83D";
        try (ResultsFile file = new ResultsFile(dir, new ReportingSession())) {
            file.resultReported(record("a", cut, "out \uDC4D put"), null);
            file.resultReported(record("b", "fine 👍", "ok"), null);
        }

        List<String> lines = Files.readAllLines(dir.resolve(ResultsFile.FILE_NAME), StandardCharsets.UTF_8);
        assertThat(lines).hasSize(2);
        ObjectMapper json = new ObjectMapper();
        JsonNode first = json.readTree(lines.get(0));
        assertThat(first.get("reason").asText()).isEqualTo("thumbs \uFFFD");
        assertThat(first.get("output").asText()).isEqualTo("out \uFFFD put");
        assertThat(json.readTree(lines.get(1)).get("reason").asText()).isEqualTo("fine 👍");
    }

    private static ResultRecord record(String caseId, String reason, String output) {
        return new ResultRecord("eval", "sim_small", "cases", caseId, "exact_match", "v1", "eval-exact-match", 0, 0.0,
                false, ResultStatus.FAILED, reason, Map.of(), 1L, 0, 0, 0.0, false, 1.0, List.of(), null, output);
    }
}
