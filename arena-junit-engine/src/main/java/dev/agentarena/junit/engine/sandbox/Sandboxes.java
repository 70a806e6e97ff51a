package dev.agentarena.junit.engine.sandbox;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;

/**
 * Finds the sandbox at run time: bubblewrap ({@code bwrap}), the only one supported, checked once per JVM by starting
 * an empty sandbox; or, when asked for explicitly, none. A missing or broken sandbox is a
 * {@link SandboxUnavailableException} naming the tool and the opt-out, never a silent fallback to running unsandboxed.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Sandboxes {

    /** The value of {@link Constants#CODE_EXEC_SANDBOX} that asks for bubblewrap (the default). */
    public static final String BWRAP = "bwrap";

    /** The value of {@link Constants#CODE_EXEC_SANDBOX} that runs code unsandboxed. */
    public static final String NONE = "none";

    private static final String GUIDE = "docs/guides/hardening.md";
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);
    private static final Map<String, Object> BUBBLEWRAPS = new ConcurrentHashMap<>();

    private Sandboxes() {
    }

    /**
     * The sandbox to run code in.
     *
     * @param mode {@link #BWRAP} or {@link #NONE}
     * @param bwrapExecutable the bwrap to use (a path, or a name looked up on the {@code PATH}); {@code null} for
     *        {@code bwrap} on the {@code PATH}
     * @param hostEnvironment the JVM's environment: its {@code PATH} is searched, and, unsandboxed, passed on
     * @throws SandboxUnavailableException when bubblewrap is asked for but cannot run here
     * @throws IllegalArgumentException when the mode is neither
     */
    public static Sandbox select(String mode, String bwrapExecutable, Map<String, String> hostEnvironment) {
        String normalized = mode.trim().toLowerCase(Locale.ROOT);
        if (normalized.equals(NONE)) {
            return new Unsandboxed(hostEnvironment);
        }
        if (!normalized.equals(BWRAP)) {
            throw new IllegalArgumentException("option 'sandbox' of scorer 'code_exec' (" + Constants.CODE_EXEC_SANDBOX
                    + ") must be bwrap or none, but was \"" + mode + "\"");
        }
        String executable = bwrapExecutable == null || bwrapExecutable.isBlank() ? "bwrap" : bwrapExecutable.trim();
        String path = hostEnvironment.getOrDefault("PATH", "");
        Object found = BUBBLEWRAPS.computeIfAbsent(executable + File.pathSeparator + path,
                key -> locate(executable, path));
        if (found instanceof String) {
            throw new SandboxUnavailableException((String) found);
        }
        return (Bubblewrap) found;
    }

    /** A working bubblewrap, or the message saying why there is none. */
    private static Object locate(String executable, String searchPath) {
        Optional<Path> bwrap = find(executable, searchPath);
        if (bwrap.isEmpty()) {
            return "code_exec runs model-written code only inside a sandbox, and bubblewrap ('" + executable
                    + "') was not found" + (executable.contains("/") ? "" : " on the PATH") + ". Install it "
                    + "(Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; macOS and Windows "
                    + "have none: run the build in a Linux container or VM), name it with "
                    + Constants.CODE_EXEC_BWRAP + ", or, only for code you trust, run it unsandboxed with "
                    + Constants.CODE_EXEC_SANDBOX + "=" + NONE + " (see " + GUIDE + ").";
        }
        Path setpriv = null;
        if (isRoot()) {
            Optional<Path> found = find("setpriv", searchPath + File.pathSeparator + "/usr/bin:/bin");
            if (found.isEmpty()) {
                return "code_exec: the JVM runs as root, and the sandbox must then run as an unprivileged user (root "
                        + "is exempt from the process limit), which needs setpriv (util-linux), not found on the "
                        + "PATH. Install util-linux, run the build as another user, or, only for code you trust, set "
                        + Constants.CODE_EXEC_SANDBOX + "=" + NONE + " (see " + GUIDE + ").";
            }
            setpriv = found.get();
        }
        Optional<Path> prlimit = find("prlimit", "/usr/bin:/bin:/usr/sbin:/sbin:/usr/local/bin");
        if (prlimit.isEmpty()) {
            return "code_exec: the sandbox sets its limits with prlimit (util-linux), not found under /usr/bin or /bin. "
                    + "Install util-linux, or, only for code you trust, set " + Constants.CODE_EXEC_SANDBOX + "="
                    + NONE + " (see " + GUIDE + ").";
        }
        String version;
        try {
            version = run(List.of(bwrap.get().toString(), "--version")).strip();
        }
        catch (IOException e) {
            return "code_exec: cannot run bubblewrap at " + bwrap.get() + ": " + e.getMessage();
        }
        Path filter = null;
        Optional<byte[]> program = SeccompFilter.forThisMachine();
        if (program.isPresent()) {
            try {
                filter = Files.createTempFile("arena-seccomp-", ".bpf");
                filter.toFile().deleteOnExit();
                Files.write(filter, program.get());
            }
            catch (IOException e) {
                return "code_exec: cannot write the sandbox's seccomp filter to a temporary file (java.io.tmpdir): "
                        + e;
            }
        }
        Bubblewrap sandbox = new Bubblewrap(bwrap.get(), version.isEmpty() ? "bubblewrap" : version, setpriv,
                prlimit.get(), filter, MemoryCgroups.locate().orElse(null));
        // An empty sandbox: the kernel may forbid user namespaces, or this bwrap may lack an option.
        ProcessLimits limits = new ProcessLimits(PROBE_TIMEOUT, PROBE_TIMEOUT, 256L << 20, 16, 1 << 20, 10, 1 << 20,
                1 << 16, 1 << 16);
        try (Sandbox.Launch probe = sandbox.launch(List.of("/bin/sh", "-c", "exit 0"), null, List.of(), limits)) {
            SandboxedRun.Outcome outcome = SandboxedRun.run(probe.process(), limits, null, null, true, new byte[0]);
            if (outcome.ending() != SandboxedRun.Ending.EXITED) {
                return "code_exec: an empty bubblewrap sandbox did not finish within " + PROBE_TIMEOUT.toSeconds()
                        + "s on this machine";
            }
            if (outcome.exitCode() != 0) {
                String output = (outcome.stderr() + " " + outcome.stdout()).strip();
                return "code_exec: " + version + " at " + bwrap.get() + " cannot start a sandbox here (exit code "
                        + outcome.exitCode() + (output.isEmpty() ? "" : ": " + output) + "). It needs bubblewrap "
                        + "0.8.0 or newer and user namespaces (in a container: --security-opt seccomp=unconfined, or a "
                        + "privileged container). Fix that, or, only for code you trust, set "
                        + Constants.CODE_EXEC_SANDBOX + "=" + NONE + " (see " + GUIDE + ").";
            }
        }
        catch (IOException | IllegalStateException e) {
            return "code_exec: cannot start bubblewrap at " + bwrap.get() + ": " + e.getMessage();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // thrown, not returned: an interruption must not be remembered as the verdict on bubblewrap
            throw new IllegalStateException("code_exec: interrupted while checking bubblewrap", e);
        }
        return sandbox;
    }

    /** Whether the JVM runs as root: the owner of {@code /proc/self} is the process's user. */
    static boolean isRoot() {
        try {
            return ((Number) Files.getAttribute(Paths.get("/proc/self"), "unix:uid")).intValue() == 0;
        }
        catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    /** An executable: a path as given, or a name looked up in a search path. */
    static Optional<Path> find(String executable, String searchPath) {
        if (executable.contains("/")) {
            Path path = Paths.get(executable).toAbsolutePath();
            return Files.isRegularFile(path) && Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
        }
        List<String> directories = new ArrayList<>(List.of(searchPath.split(File.pathSeparator)));
        for (String directory : directories) {
            if (directory.isBlank()) {
                continue;
            }
            Path candidate = Paths.get(directory, executable);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate.toAbsolutePath());
            }
        }
        return Optional.empty();
    }

    private static String run(List<String> command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().clear();
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            process.waitFor(PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
        return output;
    }
}
