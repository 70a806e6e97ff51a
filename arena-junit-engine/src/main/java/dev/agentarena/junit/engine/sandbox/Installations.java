package dev.agentarena.junit.engine.sandbox;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.apiguardian.api.API;

/**
 * Where an interpreter lives on the host, so that a sandbox can show it, and only it, read-only: a Python found
 * through the {@code PATH} (a pyenv shim, a virtual environment) or a JDK with links into {@code /etc}.
 * Each interpreter is looked up once per JVM.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Installations {

    /**
     * An interpreter to run inside a sandbox.
     *
     * @param executable the absolute path to run, the same inside the sandbox
     * @param paths the host paths it needs (its installation, and files its links point to)
     */
    public record Installation(String executable, List<Path> paths) {

        /** Freezes the paths. */
        public Installation {
            paths = List.copyOf(paths);
        }
    }

    /** The directories searched first for an interpreter named without a path: those the sandbox shows. */
    public static final String SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin";

    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(60);
    private static final String PYTHON_QUERY = "import os, sys; print(sys.executable); print(sys.prefix); "
            + "print(sys.base_prefix); print(os.path.realpath(sys.executable))";
    private static final Map<String, Installation> CACHE = new ConcurrentHashMap<>();

    private Installations() {
    }

    /**
     * A Python: a path as given, or a name looked up first in the system directories every sandbox shows
     * ({@value #SYSTEM_PATH}), then on the JVM's {@code PATH} (a pyenv shim, a virtual environment). It is asked
     * (unsandboxed: it is the configured interpreter, not generated code) for its executable and prefixes.
     *
     * @throws IOException when it cannot be started or does not answer
     */
    public static Installation python(String executable, Map<String, String> hostEnvironment) throws IOException {
        String path = SYSTEM_PATH + File.pathSeparator + hostEnvironment.getOrDefault("PATH", "");
        String key = "python" + File.pathSeparator + executable + File.pathSeparator + path;
        Installation cached = CACHE.get(key);
        if (cached != null) {
            return cached;
        }
        Path found = Sandboxes.find(executable, path)
                .orElseThrow(() -> new IOException("not found" + (executable.contains("/") ? "" : " on the PATH")));
        ProcessBuilder builder = new ProcessBuilder(found.toString(), "-I", "-c", PYTHON_QUERY);
        builder.environment().clear();
        builder.environment().put("PATH", path);
        builder.environment().put("LANG", "C.UTF-8");
        ProcessLimits limits = new ProcessLimits(LOOKUP_TIMEOUT, LOOKUP_TIMEOUT, 1L << 30, 64, 1 << 20, 60, 1 << 20,
                1 << 20, 1 << 16);
        SandboxedRun.Outcome outcome;
        try {
            outcome = SandboxedRun.run(builder, limits, null, null, false, new byte[0]);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking " + found + " where it lives", e);
        }
        String[] lines = outcome.stdout().strip().split("\\R");
        if (outcome.ending() != SandboxedRun.Ending.EXITED || outcome.exitCode() != 0 || lines.length < 4) {
            throw new IOException(found + " did not say where it lives (" + outcome.ending() + ", exit code "
                    + outcome.exitCode() + "): " + outcome.stderr().strip());
        }
        Set<Path> paths = new LinkedHashSet<>();
        for (int i = 1; i < 4; i++) {
            Path candidate = Paths.get(lines[i].strip());
            if (i == 3) {
                candidate = candidate.getParent();
            }
            if (candidate != null && candidate.getNameCount() > 0) {
                paths.add(candidate);
            }
        }
        Installation installation = new Installation(lines[0].strip(), new ArrayList<>(paths));
        CACHE.put(key, installation);
        return installation;
    }

    /**
     * A Java launcher ({@code <home>/bin/java}): its home, and the targets of links inside it that point elsewhere
     * (Debian's JDKs link their {@code conf} files into {@code /etc/java-<n>-openjdk}).
     *
     * @throws IOException when the launcher does not exist
     */
    public static Installation java(String launcher, Map<String, String> hostEnvironment) throws IOException {
        String path = SYSTEM_PATH + File.pathSeparator + hostEnvironment.getOrDefault("PATH", "");
        String key = "java" + File.pathSeparator + launcher + File.pathSeparator + path;
        Installation cached = CACHE.get(key);
        if (cached != null) {
            return cached;
        }
        Path found = Sandboxes.find(launcher, path)
                .orElseThrow(() -> new IOException("not found" + (launcher.contains("/") ? "" : " on the PATH")));
        Path real = found.toRealPath();
        Path home = real.getParent() == null ? null : real.getParent().getParent();
        if (home == null || home.getNameCount() == 0) {
            throw new IOException(found + " is not inside a Java home (<home>/bin/java)");
        }
        Set<Path> paths = new LinkedHashSet<>();
        paths.add(home);
        try (Stream<Path> files = Files.walk(home)) {
            files.filter(Files::isSymbolicLink).forEach(link -> {
                try {
                    Path target = link.toRealPath();
                    if (!target.startsWith(home)) {
                        paths.add(target);
                    }
                }
                catch (IOException e) {
                    // a dangling link: nothing to show
                }
            });
        }
        Installation installation = new Installation(real.toString(), new ArrayList<>(paths));
        CACHE.put(key, installation);
        return installation;
    }
}
