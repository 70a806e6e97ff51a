package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.agents.ConversationIdFixture;

/**
 * A task's {@code conversationId}: one per eval, model, case and repeat, given to every turn of its conversation, the
 * same on every run, and safe as a key whatever the case id holds; a task that keys its memory on it keeps each
 * conversation apart.
 */
class ConversationIdEngineTest {

    @TempDir
    Path output;

    @BeforeEach
    void forget() {
        ConversationIdFixture.RUNS.clear();
    }

    @Test
    void eachRunOfAConversationHasAnIdOfItsOwnForAllItsTurns() {
        EngineRun run = new EngineRun(output.resolve("first")).execute(ConversationIdFixture.class);

        // 2 cases x 2 models x 2 repeats, each id given to the 3 turns of one case on one model
        assertThat(ConversationIdFixture.RUNS).hasSize(8);
        assertThat(ConversationIdFixture.RUNS.values()).allSatisfy(runs -> assertThat(runs).hasSize(3)
                .containsOnly(runs.get(0)));
        assertThat(run.lines()).hasSize(8).allSatisfy(line -> assertThat(line.get("status").asText())
                .as("%s", line).isEqualTo("passed"));
    }

    @Test
    void theIdIsTheSameOnEveryRunAndSafeWhateverTheCaseIdHolds() {
        new EngineRun(output.resolve("first")).execute(ConversationIdFixture.class);
        Map<String, List<String>> first = Map.copyOf(ConversationIdFixture.RUNS);
        ConversationIdFixture.RUNS.clear();

        new EngineRun(output.resolve("second")).execute(ConversationIdFixture.class);

        assertThat(ConversationIdFixture.RUNS).isEqualTo(first);
        Set<String> ids = ConversationIdFixture.ids();
        assertThat(ids).allMatch(id -> id.matches("(refund|a_b_c)-[0-9a-f]{16}"), "the case id, then a digest");
        assertThat(ids).filteredOn(id -> id.startsWith("a_b_c-")).hasSize(4)
                .allSatisfy(id -> assertThat(first.get(id)).containsOnly(first.get(id).get(0))
                        .allMatch(runOf -> runOf.startsWith("a:b|c on ")));
    }
}
