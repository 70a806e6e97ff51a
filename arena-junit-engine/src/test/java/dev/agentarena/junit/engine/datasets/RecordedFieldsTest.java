package dev.agentarena.junit.engine.datasets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Trajectory;

/**
 * A row's recorded run, {@code trajectory} and {@code retrieved} next to its {@code output}: read into
 * {@link EvalCase#recordedTrajectory()} and {@link EvalCase#recordedRetrieved()}; a wrong shape fails its row naming
 * file, line, field and element.
 */
class RecordedFieldsTest {

    @TempDir
    Path dir;

    @Test
    void aRowsTrajectoryAndPassagesAreItsRecordedRun() throws IOException {
        EvalCase evalCase = rows("{\"id\": \"a\", \"input\": \"q\", \"output\": \"shipped\", \"trajectory\": ["
                + "{\"tool\": \"lookup_order\", \"arguments\": {\"order_id\": 42}, \"result\": {\"status\": "
                + "\"shipped\"}}, {\"tool\": \"refund\", \"error\": \"refused\"}], \"retrieved\": [{\"id\": \"doc-7\", "
                + "\"text\": \"Orders ship in 2 days.\", \"score\": 0.9, \"source\": {\"file\": \"faq.md\"}}]}")
                .get(0).evalCase().orElseThrow();

        Trajectory trajectory = evalCase.recordedTrajectory();
        assertThat(trajectory.toolCalls()).containsExactly(new ToolCall("lookup_order", Map.of("order_id", 42)),
                new ToolCall("refund", Map.of()));
        assertThat(trajectory.toolSteps()).extracting(Trajectory.ToolStep::result, Trajectory.ToolStep::error)
                .containsExactly(tuple("{\"status\":\"shipped\"}", null),
                        tuple("", "refused"));
        assertThat(evalCase.recordedRetrieved()).containsExactly(RetrievedPassage.of("doc-7",
                "Orders ship in 2 days.").withRank(1).withScore(0.9).withSource(Map.of("file", "faq.md")));
    }

    @Test
    void aWrongShapeFailsTheRowNamingTheFieldAndElement() throws IOException {
        List<DatasetRow> rows = rows("{\"id\": \"a\", \"input\": \"q\", \"trajectory\": [{\"name\": \"x\"}]}\n"
                + "{\"id\": \"b\", \"input\": \"q\", \"retrieved\": [{\"text\": \"no id\"}, {\"id\": \"d\", "
                + "\"score\": \"high\"}]}\n{\"id\": \"c\", \"input\": \"q\", \"trajectory\": \"lookup\"}");

        assertThat(rows.get(0).error()).contains("t.jsonl:1: trajectory[0]: unknown key 'name'; a step has tool, "
                + "arguments, result and error; trajectory[0].tool must be the tool's name");
        assertThat(rows.get(1).error()).contains("t.jsonl:2: retrieved[0].id must be the passage's id as text; "
                + "retrieved[1].score must be a finite number");
        assertThat(rows.get(2).error()).contains("t.jsonl:3: trajectory must be a list of tool steps {\"tool\": "
                + "\"...\", \"arguments\": {...}, \"result\": ..., \"error\": \"...\"}, found string");
    }

    private List<DatasetRow> rows(String text) throws IOException {
        Path file = dir.resolve("t.jsonl");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        List<DatasetRow> rows = new ArrayList<>();
        try (DatasetStream stream = DatasetFiles.open(new DatasetSource("t.jsonl", file.toUri(), file, "file"))) {
            stream.forEachRemaining(rows::add);
        }
        return rows;
    }
}
