package dev.agentarena.junit.engine.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.function.UnaryOperator;

import org.apiguardian.api.API;

/**
 * Runs one untrusted program to an end: it exits, a clock runs out, or it writes too much. Afterwards no process it
 * started is left running, or the run fails with an error naming the survivors.
 *
 * <p>The clock has two parts. Until the program writes its start marker (the first bytes on stdout, written by a
 * prologue before any of its own code runs, and removed from what is kept) the start-up limit applies; from then on
 * the run-time limit. A program that never writes the marker stays under the start-up limit. Its end token, written
 * once its checks ran to their end, is removed from stdout wherever it comes and noted as {@link Outcome#finished()}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SandboxedRun {

    /** How a run ended. */
    public enum Ending {
        /** The program exited by itself. */
        EXITED,
        /** The interpreter did not start the program within the start-up limit. */
        STARTUP_TIMEOUT,
        /** The program ran past the run-time limit. */
        RUN_TIMEOUT,
        /** The program wrote more than the output limit. */
        OUTPUT_LIMIT
    }

    /**
     * What happened.
     *
     * @param ending how it ended
     * @param exitCode the exit code (128 + the signal's number when a signal ended it), or -1 when it was killed
     * @param stdout what was kept of stdout, without the start marker
     * @param stderr what was kept of stderr
     * @param truncated whether either stream lost its middle
     * @param started whether the program started (wrote its marker)
     * @param finished whether the program wrote its end token: its checks ran to their end
     * @param startupMillis from the start of the process to the marker (or to the end, when it never started)
     * @param millis from the start of the process to its end
     */
    public record Outcome(Ending ending, int exitCode, String stdout, String stderr, boolean truncated,
            boolean started, boolean finished, long startupMillis, long millis) {

        /** This outcome with its output passed through {@code mask}: a scorer masks secrets before it cuts. */
        public Outcome masked(UnaryOperator<String> mask) {
            return new Outcome(ending, exitCode, mask.apply(stdout), mask.apply(stderr), truncated, started,
                    finished, startupMillis, millis);
        }
    }

    private static final long POLL_MILLIS = 25;
    private static final long KILL_WAIT_MILLIS = 5000;
    /** How long to wait for the rest of the output once the program ended. */
    private static final long DRAIN_MILLIS_SANDBOXED = 60_000;
    private static final long DRAIN_MILLIS_UNSANDBOXED = 5_000;

    private SandboxedRun() {
    }

    /**
     * Starts the process and runs it to an end.
     *
     * @param marker the bytes the program writes first on stdout once it starts, or {@code null} when it writes none
     * @param endToken the bytes the program writes on stdout once its checks ran to their end, or {@code null}; the
     *        first byte must occur nowhere else in it
     * @param input what the program reads on its standard input (then its end), written as it reads; empty for none
     * @param namespaced whether the process's child is pid 1 of a pid namespace holding every process of the program
     *        (a {@link Sandbox#isolated()} sandbox): killing that child ends them all, and the process exits only
     *        once they are gone. Otherwise descendants are tracked while the program runs, and killed one by one.
     * @throws IOException when the process cannot be started (e.g. the interpreter is missing)
     * @throws IllegalStateException when a process of the program survives being killed
     */
    public static Outcome run(ProcessBuilder builder, ProcessLimits limits, byte[] marker, byte[] endToken,
            boolean namespaced, byte[] input) throws IOException, InterruptedException {
        long spawned = System.nanoTime();
        Process process = builder.start();
        feed(process.getOutputStream(), input);
        AtomicLong total = new AtomicLong();
        AtomicBoolean overflow = new AtomicBoolean();
        CappedOutput stdout = new CappedOutput(limits.keptOutputBytes());
        CappedOutput stderr = new CappedOutput(limits.keptOutputBytes());
        StartMarker start = new StartMarker(marker);
        EndToken end = new EndToken(endToken);
        Thread outDrain = drain(process.getInputStream(), stdout, start, end, total, overflow, limits, "stdout");
        Thread errDrain = drain(process.getErrorStream(), stderr, StartMarker.none(), EndToken.none(), total,
                overflow, limits, "stderr");
        // Descendants are remembered while the process runs: once it exits they are re-parented, no longer its
        // descendants, and would outlive the run unnoticed.
        Set<ProcessHandle> seen = new LinkedHashSet<>();
        Ending ending = null;
        try {
            while (ending == null) {
                long now = System.nanoTime();
                long startedAt = start.startedAt();
                long deadline = startedAt == 0 ? spawned + limits.startupTimeout().toNanos()
                        : startedAt + limits.runTimeout().toNanos();
                if (overflow.get()) {
                    ending = Ending.OUTPUT_LIMIT;
                }
                else if (now - deadline >= 0) {
                    ending = startedAt == 0 ? Ending.STARTUP_TIMEOUT : Ending.RUN_TIMEOUT;
                }
                else {
                    if (!namespaced) {
                        process.descendants().forEach(seen::add);
                    }
                    long wait = Math.min(TimeUnit.NANOSECONDS.toMillis(deadline - now) + 1, POLL_MILLIS);
                    if (process.waitFor(wait, TimeUnit.MILLISECONDS)) {
                        ending = overflow.get() ? Ending.OUTPUT_LIMIT : Ending.EXITED;
                    }
                }
            }
        }
        finally {
            // Also on interruption: untrusted code never outlives the run.
            if (process.isAlive() || ending != Ending.EXITED) {
                kill(process, seen, namespaced);
            }
        }
        long ended = System.nanoTime();
        awaitGone(process, seen);
        // Sandboxed, every process of the program is gone by now, so the pipes are closed and the drains end as soon
        // as they have read the rest: wait for them (on a loaded machine that can take seconds, and a short wait
        // would lose the program's last words, its assertion error). Unsandboxed, a grandchild that inherited the
        // pipes may keep them open: do not wait long for it.
        long drainMillis = namespaced ? DRAIN_MILLIS_SANDBOXED : DRAIN_MILLIS_UNSANDBOXED;
        outDrain.join(drainMillis);
        errDrain.join(drainMillis);
        long startedAt = start.startedAt();
        long startupNanos = (startedAt == 0 ? ended : startedAt) - spawned;
        return new Outcome(ending, ending == Ending.EXITED ? process.exitValue() : -1, stdout.text(), stderr.text(),
                stdout.truncated() || stderr.truncated(), startedAt != 0, end.seen(), TimeUnit.NANOSECONDS.toMillis(startupNanos),
                TimeUnit.NANOSECONDS.toMillis(ended - spawned));
    }

    private static void kill(Process process, Set<ProcessHandle> seen, boolean namespaced)
            throws InterruptedException {
        // The children first: in a sandbox, the child is pid 1 of the program's namespace, and its death ends every
        // process in it. Unsandboxed, children killed before their parent cannot be re-parented out of sight.
        process.children().forEach(child -> {
            seen.add(child);
            child.destroyForcibly();
        });
        if (namespaced) {
            // bwrap exits once the kernel has ended every process of the namespace
            if (process.waitFor(KILL_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                return;
            }
        }
        for (int round = 0; round < 3; round++) {
            process.descendants().forEach(seen::add);
            seen.forEach(ProcessHandle::destroyForcibly);
        }
        process.destroyForcibly();
        process.waitFor(KILL_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Waits until no process the program was seen to start is running; fails naming those that still are. */
    private static void awaitGone(Process process, Set<ProcessHandle> seen) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_WAIT_MILLIS);
        Set<ProcessHandle> running = running(seen);
        while (!running.isEmpty() && System.nanoTime() - deadline < 0) {
            running.forEach(ProcessHandle::destroyForcibly);
            Thread.sleep(POLL_MILLIS);
            running = running(seen);
        }
        if (!running.isEmpty() || process.isAlive()) {
            throw new IllegalStateException("code_exec: processes of the program survived being killed: pids "
                    + running.stream().map(handle -> String.valueOf(handle.pid())).collect(Collectors.joining(", "))
                    + (process.isAlive() ? " and " + process.pid() : ""));
        }
    }

    private static Set<ProcessHandle> running(Set<ProcessHandle> handles) {
        return handles.stream().filter(SandboxedRun::isRunning).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /** Alive and not a zombie: in containers whose init does not reap, killed orphans stay zombies. */
    static boolean isRunning(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return false;
        }
        Path stat = Paths.get("/proc", Long.toString(handle.pid()), "stat");
        try {
            String text = Files.readString(stat);
            int close = text.lastIndexOf(')');
            return close < 0 || close + 2 >= text.length() || text.charAt(close + 2) != 'Z';
        }
        catch (IOException e) {
            // no /proc (not Linux), or gone in between
            return handle.isAlive() && !Files.isDirectory(Paths.get("/proc"));
        }
    }

    /** Writes the input on a thread of its own (a pipe holds 64 KiB), then closes the stream. */
    private static void feed(OutputStream stdin, byte[] input) throws IOException {
        if (input.length == 0) {
            stdin.close();
            return;
        }
        Thread thread = new Thread(() -> {
            try (stdin) {
                stdin.write(input);
            }
            catch (IOException e) {
                // the program ended without reading it all
            }
        }, "arena-code-exec-stdin");
        thread.setDaemon(true);
        thread.start();
    }

    private static Thread drain(InputStream stream, CappedOutput sink, StartMarker start, EndToken end,
            AtomicLong total, AtomicBoolean overflow, ProcessLimits limits, String name) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (stream) {
                int n;
                while ((n = stream.read(buffer)) > 0) {
                    int offset = start.consume(buffer, n);
                    byte[] unmatched = start.takeUnmatched();
                    keep(end.filter(unmatched, 0, unmatched.length), sink, total, overflow, limits);
                    keep(end.filter(buffer, offset, n - offset), sink, total, overflow, limits);
                }
            }
            catch (IOException e) {
                // the process is gone; what was read is kept
            }
            keep(end.finish(), sink, total, overflow, limits);
        }, "arena-code-exec-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void keep(byte[] bytes, CappedOutput sink, AtomicLong total, AtomicBoolean overflow,
            ProcessLimits limits) {
        if (bytes.length > 0) {
            if (total.addAndGet(bytes.length) > limits.outputLimitBytes()) {
                overflow.set(true);
            }
            sink.write(bytes, 0, bytes.length);
        }
    }
}
