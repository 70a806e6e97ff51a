package dev.agentarena.junit.engine.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

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

    /** The memory cgroups of this JVM's programs that still exist: none once every run is over. */
    public static List<Path> leftoverCgroups() throws IOException {
        MemoryCgroups cgroups = bubblewrap().cgroups();
        if (cgroups == null) {
            return List.of();
        }
        String prefix = "arena-sandbox-" + ProcessHandle.current().pid() + "-";
        try (Stream<Path> children = Files.list(cgroups.parent())) {
            return children.filter(child -> child.getFileName().toString().startsWith(prefix))
                    .collect(Collectors.toList());
        }
    }

    private static Bubblewrap bubblewrap() {
        return (Bubblewrap) Sandboxes.select(Sandboxes.BWRAP, null, System.getenv());
    }
}
