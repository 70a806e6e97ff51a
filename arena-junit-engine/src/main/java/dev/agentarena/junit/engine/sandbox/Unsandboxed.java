package dev.agentarena.junit.engine.sandbox;

import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The documented opt-out: the program runs as the JVM's user, with an empty environment (plus {@code PATH}, a UTF-8
 * locale and {@code HOME}/{@code TMPDIR} in its own directory), the wall-clock and output limits, and nothing else.
 * It can read the file system, use the network and, with a double fork, outlive the run.
 */
final class Unsandboxed implements Sandbox {

    private final Map<String, String> hostEnvironment;

    Unsandboxed(Map<String, String> hostEnvironment) {
        this.hostEnvironment = hostEnvironment;
    }

    @Override
    public String description() {
        return "none (unsandboxed)";
    }

    @Override
    public boolean isolated() {
        return false;
    }

    @Override
    public String programFile(Path hostDirectory, String fileName) {
        return hostDirectory.resolve(fileName).toString();
    }

    @Override
    public void share(Path hostDirectory) {
        // the program runs as the JVM's user, who wrote the files
    }

    @Override
    public Launch launch(List<String> command, Path hostDirectory, Collection<Path> interpreterPaths,
            ProcessLimits limits) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(hostDirectory.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment(hostDirectory));
        return new Launch() {
            @Override
            public ProcessBuilder process() {
                return builder;
            }

            @Override
            public List<String> limitsReached() {
                return List.of();
            }

            @Override
            public long peakMemoryBytes() {
                return -1;
            }

            @Override
            public void close() {
                // nothing was made
            }
        };
    }

    private Map<String, String> environment(Path workDir) {
        // Start from nothing: the host's environment holds API keys that generated code must never see.
        Map<String, String> environment = new LinkedHashMap<>();
        String path = hostEnvironment.get("PATH");
        if (path == null) {
            path = hostEnvironment.get("Path");
        }
        if (path != null) {
            environment.put("PATH", path);
        }
        // Windows cannot start most programs without these.
        for (String name : List.of("SystemRoot", "SYSTEMROOT", "windir", "PATHEXT")) {
            if (hostEnvironment.containsKey(name)) {
                environment.put(name, hostEnvironment.get(name));
            }
        }
        environment.put("LANG", "C.UTF-8");
        environment.put("LC_ALL", "C.UTF-8");
        environment.put("HOME", workDir.toString());
        environment.put("TMPDIR", workDir.toString());
        environment.put("TEMP", workDir.toString());
        environment.put("TMP", workDir.toString());
        return environment;
    }
}
