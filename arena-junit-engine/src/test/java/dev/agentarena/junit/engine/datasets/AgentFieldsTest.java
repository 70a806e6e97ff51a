package dev.agentarena.junit.engine.datasets;

import static dev.agentarena.junit.engine.datasets.DatasetTesting.error;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.evalCase;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.model.ToolCall;

/**
 * The fields that script an agent, {@code tool_results}, {@code expected_trajectory} and {@code turns}, read the
 * same in all four formats into {@link EvalCase#toolResults()}, {@link EvalCase#expectedTrajectory()} and
 * {@link EvalCase#turns()}, never as metadata; a wrong shape fails its row naming file, line and field.
 */
class AgentFieldsTest {

    private static final Map<String, Object> TOOL_RESULTS = Map.of(
            "lookup_order", Map.of("status", "shipped", "items", List.of(1, 2)),
            "refund", "done");
    private static final List<ToolCall> TRAJECTORY = List.of(
            new ToolCall("lookup_order", Map.of("order_id", 42)),
            new ToolCall("refund", Map.of("order_id", 42, "reason", "late")),
            new ToolCall("escalate", Map.of()));
    private static final List<String> TURNS = List.of("Where is my order?", "Refund it, please.");

    private static final String JSON_ROW = "{\"id\": \"x\", \"input\": \"q\", "
            + "\"tool_results\": {\"lookup_order\": {\"status\": \"shipped\", \"items\": [1, 2]}, \"refund\": \"done\"}, "
            + "\"expected_trajectory\": [{\"tool\": \"lookup_order\", \"arguments\": {\"order_id\": 42}}, "
            + "{\"name\": \"refund\", \"arguments\": {\"order_id\": 42, \"reason\": \"late\"}}, {\"tool\": \"escalate\"}], "
            + "\"turns\": [\"Where is my order?\", \"Refund it, please.\"]}";

    @TempDir
    Path dir;

    private static void assertAgentFields(EvalCase evalCase) {
        assertThat(evalCase.toolResults()).isEqualTo(TOOL_RESULTS);
        assertThat(evalCase.expectedTrajectory()).contains(TRAJECTORY);
        assertThat(evalCase.turns()).isEqualTo(TURNS);
        assertThat(evalCase.metadata()).isEmpty();
    }

    @Test
    void jsonLines() throws Exception {
        assertAgentFields(evalCase(read(dir, "t.jsonl", JSON_ROW + "\n").get(0)));
    }

    @Test
    void json() throws Exception {
        assertAgentFields(evalCase(read(dir, "t.json", "{\"tests\": [" + JSON_ROW + "]}").get(0)));
    }

    @Test
    void yaml() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yaml", """
                tests:
                  - id: x
                    input: q
                    tool_results:
                      lookup_order: {status: shipped, items: [1, 2]}
                      refund: done
                    expected_trajectory:
                      - tool: lookup_order
                        arguments: {order_id: 42}
                      - name: refund
                        arguments: {order_id: 42, reason: late}
                      - tool: escalate
                    turns:
                      - Where is my order?
                      - Refund it, please.
                """);

        assertAgentFields(evalCase(rows.get(0)));
    }

    @Test
    void csvCellsHoldTheJson() throws Exception {
        String csv = "id,input,tool_results,expected_trajectory,turns\n"
                + "x,q," + quoted("{\"lookup_order\": {\"status\": \"shipped\", \"items\": [1, 2]}, \"refund\": \"done\"}")
                + "," + quoted("[{\"tool\": \"lookup_order\", \"arguments\": {\"order_id\": 42}}, "
                        + "{\"name\": \"refund\", \"arguments\": {\"order_id\": 42, \"reason\": \"late\"}}, "
                        + "{\"tool\": \"escalate\"}]")
                + "," + quoted("[\"Where is my order?\", \"Refund it, please.\"]") + "\n"
                + "y,q,,,\n";
        List<DatasetRow> rows = read(dir, "t.csv", csv);

        assertAgentFields(evalCase(rows.get(0)));
        EvalCase plain = evalCase(rows.get(1));
        assertThat(plain.toolResults()).isEmpty();
        assertThat(plain.expectedTrajectory()).isEmpty();
        assertThat(plain.turns()).isEmpty();
    }

    @Test
    void aCsvCellThatIsNotJsonFailsItsRowNamingTheColumn() throws Exception {
        List<DatasetRow> rows = read(dir, "t.csv", "id,input,turns\nx,q,hello there\n");

        assertThat(error(rows.get(0))).isEqualTo("t.csv:2: turns must hold JSON, as in the other formats; found "
                + "'hello there'");
    }

    @Test
    void anEmptyExpectedTrajectoryExpectsNoToolCallAndArgumentsMayBeAJsonString() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "{\"input\": \"q\", \"expected_trajectory\": []}\n"
                + "{\"input\": \"q\", \"expected_trajectory\": [{\"tool\": \"t\", \"arguments\": \"{\\\"a\\\": 1}\"}]}\n");

        assertThat(evalCase(rows.get(0)).expectedTrajectory()).contains(List.of());
        assertThat(evalCase(rows.get(1)).expectedTrajectory()).contains(List.of(new ToolCall("t", Map.of("a", 1))));
    }

    @Test
    void aBareToolNameIsAStepOfThatToolWithAnyArguments() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "{\"input\": \"q\", \"expected_trajectory\": [\"search_kb\", "
                + "{\"tool\": \"refund\", \"arguments\": {\"a\": 1}}]}\n");

        assertThat(evalCase(rows.get(0)).expectedTrajectory()).contains(List.of(new ToolCall("search_kb", Map.of()),
                new ToolCall("refund", Map.of("a", 1))));
    }

    @Test
    void wrongShapesFailTheRowNamingFileLineAndField() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", String.join("\n",
                "{\"input\": \"q\", \"tool_results\": [\"lookup_order\"]}",
                "{\"input\": \"q\", \"expected_trajectory\": {\"tool\": \"t\"}}",
                "{\"input\": \"q\", \"expected_trajectory\": [3, {\"arguments\": {}}, \" \"]}",
                "{\"input\": \"q\", \"expected_trajectory\": [{\"tool\": \"t\", \"argumets\": {}, \"name\": \"u\"}]}",
                "{\"input\": \"q\", \"expected_trajectory\": [{\"tool\": \"t\", \"arguments\": [1]}]}",
                "{\"input\": \"q\", \"turns\": \"hello\"}",
                "{\"input\": \"q\", \"turns\": [\"hello\", 3]}",
                "{\"input\": \"q\", \"tool_results\": {\" \": 1}}") + "\n");

        assertThat(rows).extracting(DatasetTesting::error).containsExactly(
                "t.jsonl:1: tool_results must be an object of tool names, each with the result the tool returns "
                        + "({\"lookup_order\": {\"status\": \"shipped\"}}), found a list",
                "t.jsonl:2: expected_trajectory must be a list of steps, each a tool name or a step {\"tool\": "
                        + "\"<name>\", \"arguments\": {...}}, found an object",
                "t.jsonl:3: expected_trajectory[0] must be a tool name or a step {\"tool\": \"<name>\", \"arguments\": "
                        + "{...}}, found a number; expected_trajectory[1].tool must be the tool's name, found none; "
                        + "expected_trajectory[2] must be the tool's name, found a blank string",
                "t.jsonl:4: expected_trajectory[0]: unknown key 'argumets'; a step has tool (or name) and arguments; "
                        + "expected_trajectory[0] gives both 'tool' and 'name': keep one",
                "t.jsonl:5: expected_trajectory[0].arguments must be an object, found a list",
                "t.jsonl:6: turns must be a list of user turns, each text, found a string",
                "t.jsonl:7: turns[1] must be text, found a number",
                "t.jsonl:8: tool_results names a blank tool");
    }

    @Test
    void aTypoOfAnAgentFieldIsAnUnknownFieldWithASuggestion() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", "{\"input\": \"q\", \"tool_result\": {}}\n");

        assertThat(error(rows.get(0))).startsWith("t.jsonl:1: unknown field 'tool_result' (did you mean "
                + "'tool_results'?)");
    }

    private static String quoted(String json) {
        return "\"" + json.replace("\"", "\"\"") + "\"";
    }
}
