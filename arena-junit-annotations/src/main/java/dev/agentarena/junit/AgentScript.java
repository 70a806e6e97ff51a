package dev.agentarena.junit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.model.ToolCall;

import org.jspecify.annotations.Nullable;

/**
 * What a case says about the agent that runs it, kept together so that a plain case carries one shared empty value:
 * the results its tools return, the trajectory it expects, the user turns of a scripted conversation, and the
 * simulated user of a conversation the engine runs.
 *
 * @param toolResults what each named tool returns for this case, instead of running
 * @param expectedTrajectory the tool calls expected, in order, or {@code null} when the case names none
 * @param turns the user turns of a scripted conversation, empty for a single-turn case
 * @param simulatedUser the user a model plays, or {@code null}
 */
record AgentScript(Map<String, @Nullable Object> toolResults, @Nullable List<ToolCall> expectedTrajectory,
        List<String> turns, @Nullable SimulatedUser simulatedUser) {

    static final AgentScript NONE = new AgentScript(Map.of(), null, List.of(), null);

    AgentScript {
        toolResults = toolResults.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(toolResults));
        expectedTrajectory = expectedTrajectory == null ? null : List.copyOf(expectedTrajectory);
        turns = List.copyOf(turns);
        if (!turns.isEmpty() && simulatedUser != null) {
            throw new IllegalArgumentException("a case is a scripted conversation (turns) or one with a simulated "
                    + "user (simulated_user), not both");
        }
    }
}
