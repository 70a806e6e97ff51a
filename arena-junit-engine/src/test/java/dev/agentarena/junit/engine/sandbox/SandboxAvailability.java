package dev.agentarena.junit.engine.sandbox;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;

/**
 * How tests behave where bubblewrap is missing: on a developer's machine, tests of isolation are skipped (and tests
 * of {@code code_exec}'s scoring run unsandboxed); where {@value #REQUIRED_VARIABLE} is {@code true}, as
 * {@code .ci/run} sets it, a missing sandbox fails them instead, so CI always runs them for real.
 */
public final class SandboxAvailability {

    /** The environment variable (or system property) that makes a missing sandbox a test failure. */
    public static final String REQUIRED_VARIABLE = "ARENA_SANDBOX_REQUIRED";

    private SandboxAvailability() {
    }

    /** Whether a missing sandbox must fail the tests. */
    public static boolean required() {
        String value = System.getenv(REQUIRED_VARIABLE);
        if (value == null) {
            value = System.getProperty(REQUIRED_VARIABLE);
        }
        return Boolean.parseBoolean(value);
    }

    /** Why there is no sandbox here, or {@code null} when bubblewrap works. */
    public static String missing() {
        try {
            Sandboxes.select(Sandboxes.BWRAP, null, System.getenv());
            return null;
        }
        catch (SandboxUnavailableException e) {
            return e.getMessage();
        }
    }

    /** For tests of isolation: passes when bubblewrap works; else fails when required, or skips the test. */
    public static void assumeSandbox() {
        String missing = missing();
        if (missing != null) {
            if (required()) {
                fail(REQUIRED_VARIABLE + " is set, but there is no sandbox: " + missing);
            }
            Assumptions.abort("no sandbox on this machine (set " + REQUIRED_VARIABLE + "=true to fail instead): "
                    + missing);
        }
    }

    /**
     * For tests of scoring that hold in any sandbox: {@code bwrap} when it works (or is required), else {@code none}.
     */
    public static String sandboxOption() {
        return missing() == null || required() ? Sandboxes.BWRAP : Sandboxes.NONE;
    }
}
