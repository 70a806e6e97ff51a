package dev.agentarena.junit.engine.sandbox;

import java.util.LinkedHashMap;
import java.util.Map;

/** What the adversarial suite needs to know of the sandbox on this machine: what it denies and what it bounds. */
public final class SandboxFacts {

    private SandboxFacts() {
    }

    /** The system calls the seccomp filter denies, by name, with their numbers on this machine; empty without one. */
    public static Map<String, Integer> deniedSystemCalls() {
        Map<String, Integer> calls = new LinkedHashMap<>();
        SeccompFilter.Architecture.of(System.getProperty("os.arch", "")).ifPresent(architecture ->
                SeccompFilter.DENIED.forEach(call -> calls.put(call.name(), architecture.number(call))));
        return calls;
    }

    /** Whether the sandbox gives each program a memory cgroup (the whole program's memory is bounded). */
    public static boolean boundsTotalMemory() {
        return bubblewrap().boundsTotalMemory();
    }

    /** Whether the sandbox installs its seccomp filter. */
    public static boolean filtersSystemCalls() {
        return bubblewrap().filtersSystemCalls();
    }

    private static Bubblewrap bubblewrap() {
        return (Bubblewrap) Sandboxes.select(Sandboxes.BWRAP, null, System.getenv());
    }
}
