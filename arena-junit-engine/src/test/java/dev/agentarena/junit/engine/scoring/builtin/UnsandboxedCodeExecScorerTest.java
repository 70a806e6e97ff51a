package dev.agentarena.junit.engine.scoring.builtin;

import dev.agentarena.junit.engine.Slow;
import dev.agentarena.junit.engine.sandbox.Sandboxes;

/** {@code code_exec}'s scoring with the opt-out, {@code sandbox: none}: the same results, time and output limits. */
@Slow
class UnsandboxedCodeExecScorerTest extends CodeExecScorerContract {

    @Override
    String sandbox() {
        return Sandboxes.NONE;
    }
}
