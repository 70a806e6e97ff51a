package dev.agentarena.junit.engine.scoring.builtin;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** Runs one command with a given environment, a time limit that kills the whole process tree, and capped output. */
final class Subprocess {

    record Outcome(int exitCode, boolean timedOut, String stdout, String stderr, boolean truncated, long millis) {
    }

    private static final long POLL_MILLIS = 100;

    private Subprocess() {
    }

    /**
     * Runs the command to completion or until the timeout.
     *
     * @throws IOException when the command cannot be started (e.g. the interpreter is missing)
     */
    static Outcome run(List<String> command, Path workDir, Map<String, String> environment, Duration timeout,
            int maxOutputBytes) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        long started = System.nanoTime();
        Process process = builder.start();
        process.getOutputStream().close();
        CappedOutput stdout = new CappedOutput(maxOutputBytes);
        CappedOutput stderr = new CappedOutput(maxOutputBytes);
        Thread outDrain = drain(process.getInputStream(), stdout, "stdout");
        Thread errDrain = drain(process.getErrorStream(), stderr, "stderr");
        // Descendants are remembered while the process runs: once it exits they are re-parented, no longer its
        // descendants, and would outlive the scorer unnoticed.
        Set<ProcessHandle> seen = new HashSet<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean finished = false;
        try {
            while (!finished) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                process.descendants().forEach(seen::add);
                finished = process.waitFor(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, POLL_MILLIS),
                        TimeUnit.MILLISECONDS);
            }
        }
        finally {
            // Also on interruption: generated code must never outlive the scorer.
            killTree(process, seen);
        }
        // A grandchild that inherited the pipes may keep them open; do not wait for it.
        outDrain.join(2000);
        errDrain.join(2000);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        return new Outcome(finished ? process.exitValue() : -1, !finished, stdout.text(), stderr.text(),
                stdout.truncated() || stderr.truncated(), millis);
    }

    private static void killTree(Process process, Set<ProcessHandle> seen) throws InterruptedException {
        // Children first: once the parent dies they are re-parented and no longer its descendants.
        for (int round = 0; round < 3; round++) {
            process.descendants().forEach(seen::add);
            seen.forEach(ProcessHandle::destroyForcibly);
        }
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
    }

    private static Thread drain(InputStream stream, CappedOutput sink, String name) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (stream) {
                int n;
                while ((n = stream.read(buffer)) > 0) {
                    sink.write(buffer, n);
                }
            }
            catch (IOException e) {
                // the process is gone; what was read is kept
            }
        }, "arena-code-exec-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
