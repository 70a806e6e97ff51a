package dev.agentarena.junit.engine.sandbox;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Watches the test JVM's descendants while code runs, by pid: how many ran at once (a fork bomb's reach), and which
 * still run afterwards (survivors). Every process a sandboxed program starts is a descendant of the JVM while it
 * runs, on the host's side of its namespaces.
 */
public final class ProcessWatch implements AutoCloseable {

    private final Map<Long, String> seen = new LinkedHashMap<>();
    // The handles themselves: they know their start time, so a reused pid is not taken for a survivor.
    private final Map<Long, ProcessHandle> handles = new LinkedHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    private int peak;

    private ProcessWatch() {
        thread = new Thread(this::watch, "process-watch");
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts watching. */
    public static ProcessWatch start() {
        return new ProcessWatch();
    }

    private void watch() {
        while (running) {
            List<ProcessHandle> now = new ArrayList<>();
            ProcessHandle.current().descendants().forEach(now::add);
            synchronized (this) {
                peak = Math.max(peak, now.size());
                for (ProcessHandle handle : now) {
                    handles.putIfAbsent(handle.pid(), handle);
                    // the latest command line: a child seen between fork and exec first shows its parent's
                    String command = handle.info().commandLine().orElse(handle.info().command().orElse(null));
                    if (command != null || !seen.containsKey(handle.pid())) {
                        seen.put(handle.pid(), command == null ? "?" : command);
                    }
                }
            }
            try {
                Thread.sleep(10);
            }
            catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5000);
    }

    /** The most descendants seen at once. */
    public synchronized int peak() {
        return peak;
    }

    /** Every descendant seen, by pid, with the last command line seen. */
    public synchronized Map<Long, String> seen() {
        return new LinkedHashMap<>(seen);
    }

    /** The descendants seen that still run (not zombies), by pid. */
    public synchronized Map<Long, String> survivors() {
        Map<Long, String> survivors = new LinkedHashMap<>();
        handles.forEach((pid, handle) -> {
            if (SandboxedRun.isRunning(handle)) {
                survivors.put(pid, seen.get(pid));
            }
        });
        return survivors;
    }
}
