package dev.agentarena.junit.engine.scoring.builtin;

import dev.agentarena.junit.engine.Slow;
import dev.agentarena.junit.engine.sandbox.SandboxAvailability;

/** {@code code_exec}'s scoring in the sandbox (unsandboxed on a developer's machine without bubblewrap). */
@Slow
class CodeExecScorerTest extends CodeExecScorerContract {

    @Override
    String sandbox() {
        return SandboxAvailability.sandboxOption();
    }
}
