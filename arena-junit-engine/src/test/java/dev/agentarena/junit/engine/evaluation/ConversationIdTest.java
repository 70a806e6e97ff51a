package dev.agentarena.junit.engine.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** A task's conversation id: distinct per eval, model, case and repeat, bounded and safe whatever the case id holds. */
class ConversationIdTest {

    @Test
    void differsForEachEvalModelCaseAndRepeatAndIsStable() {
        Set<String> ids = new HashSet<>();
        for (String eval : List.of("support", "triage")) {
            for (String model : List.of("sim_small", "openai:gpt-4o-mini")) {
                for (String caseId : List.of("refund", "refund ")) {
                    for (int repeat = 0; repeat < 3; repeat++) {
                        ids.add(TaskRunner.conversationId(eval, model, caseId, repeat));
                    }
                }
            }
        }

        assertThat(ids).hasSize(24);
        assertThat(TaskRunner.conversationId("support", "sim_small", "refund", 1))
                .isEqualTo(TaskRunner.conversationId("support", "sim_small", "refund", 1));
    }

    @Test
    void aHugeOrHostileCaseIdGivesAShortPrintableId() {
        String hostile = "../" + "\u0000\n\u202e<script>".repeat(200_000);

        String id = TaskRunner.conversationId("support", "sim_small", hostile, 0);

        assertThat(id).hasSize(48 + 1 + 16).matches("[A-Za-z0-9._-]{48}-[0-9a-f]{16}").startsWith(".._");
    }
}
