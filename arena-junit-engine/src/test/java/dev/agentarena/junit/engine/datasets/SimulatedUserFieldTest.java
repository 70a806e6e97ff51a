package dev.agentarena.junit.engine.datasets;

import static dev.agentarena.junit.engine.datasets.DatasetTesting.error;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.evalCase;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.SimulatedUser;

/**
 * The {@code simulated_user} field reads the same in all four formats into {@link EvalCase#simulatedUser()}, never
 * as metadata; a wrong shape, key or value fails its row naming file, line and {@code simulated_user.<key>}.
 */
class SimulatedUserFieldTest {

    private static final SimulatedUser USER = SimulatedUser.of("get a refund for order 1234")
            .withPersona("an impatient customer").withMaxTurns(4).withStop("refund (is|has been) issued")
            .withModel("sim_large");

    private static final String JSON_ROW = "{\"id\": \"x\", \"input\": \"q\", \"simulated_user\": {\"goal\": \"get a "
            + "refund for order 1234\", \"persona\": \"an impatient customer\", \"max_turns\": 4, \"stop\": \"refund "
            + "(is|has been) issued\", \"model\": \"sim_large\"}}";

    @TempDir
    Path dir;

    private static void assertUser(EvalCase evalCase) {
        assertThat(evalCase.simulatedUser()).contains(USER);
        assertThat(evalCase.turns()).isEmpty();
        assertThat(evalCase.metadata()).isEmpty();
    }

    @Test
    void jsonLines() throws Exception {
        assertUser(evalCase(read(dir, "t.jsonl", JSON_ROW + "\n").get(0)));
    }

    @Test
    void json() throws Exception {
        assertUser(evalCase(read(dir, "t.json", "{\"tests\": [" + JSON_ROW + "]}").get(0)));
    }

    @Test
    void yaml() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yaml", """
                tests:
                  - id: x
                    input: q
                    simulated_user:
                      goal: get a refund for order 1234
                      persona: an impatient customer
                      max_turns: 4
                      stop: refund (is|has been) issued
                      model: sim_large
                """);

        assertUser(evalCase(rows.get(0)));
    }

    @Test
    void csvCellsHoldTheJson() throws Exception {
        String csv = "id,input,simulated_user\n"
                + "x,q,\"{\"\"goal\"\": \"\"get a refund for order 1234\"\", \"\"persona\"\": \"\"an impatient "
                + "customer\"\", \"\"max_turns\"\": 4, \"\"stop\"\": \"\"refund (is|has been) issued\"\", \"\"model\"\": "
                + "\"\"sim_large\"\"}\"\n"
                + "y,q,\n"
                + "z,q,get a refund\n";
        List<DatasetRow> rows = read(dir, "t.csv", csv);

        assertUser(evalCase(rows.get(0)));
        assertThat(evalCase(rows.get(1)).simulatedUser()).isEmpty();
        assertThat(error(rows.get(2))).isEqualTo("t.csv:4: simulated_user must hold JSON, as in the other formats; "
                + "found 'get a refund'");
    }

    @Test
    void onlyTheGoalIsRequired() throws Exception {
        EvalCase evalCase = evalCase(read(dir, "t.jsonl",
                "{\"input\": \"q\", \"simulated_user\": {\"goal\": \"track order 5\"}}\n").get(0));

        SimulatedUser user = evalCase.simulatedUser().orElseThrow();
        assertThat(user.goal()).isEqualTo("track order 5");
        assertThat(user.persona()).isEmpty();
        assertThat(user.maxTurns()).isEmpty();
        assertThat(user.stop()).isEmpty();
        assertThat(user.model()).isEmpty();
    }

    @Test
    void wrongShapesFailTheRowNamingFileLineAndKey() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", String.join("\n",
                "{\"input\": \"q\", \"simulated_user\": \"get a refund\"}",
                "{\"input\": \"q\", \"simulated_user\": {\"persona\": \"shy\"}}",
                "{\"input\": \"q\", \"simulated_user\": {\"goal\": \" \", \"max_turns\": 0}}",
                "{\"input\": \"q\", \"simulated_user\": {\"goal\": \"g\", \"max_turn\": 3, \"persona\": 7}}",
                "{\"input\": \"q\", \"simulated_user\": {\"goal\": \"g\", \"max_turns\": 2.5, \"model\": [\"m\"]}}",
                "{\"input\": \"q\", \"simulated_user\": {\"goal\": \"g\", \"stop\": \"refund (issued\"}}",
                "{\"input\": \"q\", \"simulated_user\": {\"goal\": \"g\"}, \"turns\": [\"hi\"]}") + "\n");

        assertThat(rows).extracting(DatasetTesting::error).containsExactly(
                "t.jsonl:1: simulated_user must be an object {\"goal\": \"...\", \"persona\": \"...\", \"max_turns\": 5, "
                        + "\"stop\": \"...\", \"model\": \"...\"} (only goal is required), found a string",
                "t.jsonl:2: simulated_user.goal is required: what the user wants from the conversation",
                "t.jsonl:3: simulated_user.goal must be non-blank text, found a blank string; "
                        + "simulated_user.max_turns must be a whole number >= 1, found 0",
                "t.jsonl:4: simulated_user: unknown key 'max_turn'; a simulated user has goal, persona, max_turns, "
                        + "stop, model; simulated_user.persona must be text, found a number",
                "t.jsonl:5: simulated_user.model must be text, found a list; simulated_user.max_turns must be a whole "
                        + "number >= 1, found 2.5",
                "t.jsonl:6: simulated_user.stop: a simulated user's stop must be a regular expression (a plain phrase "
                        + "is one; escape ( [ { . * + ? \\ | ^ $ with \\), but \"refund (issued\" is not: Unclosed "
                        + "group near index 14",
                "t.jsonl:7: a case is a scripted conversation (turns) or one with a simulated user (simulated_user), "
                        + "not both: keep one");
    }
}
