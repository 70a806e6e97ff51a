package dev.agentarena.junit.engine;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.engine.sandbox.Installations;
import dev.agentarena.junit.engine.sandbox.ProcessWatch;
import dev.agentarena.junit.engine.sandbox.SandboxFacts;
import dev.agentarena.junit.engine.scoring.TestScoringContext;
import dev.agentarena.junit.engine.scoring.builtin.CodeExecScorer;

/**
 * The figures of {@code docs/guides/hardening.md}: what each attack of the adversarial suite gets with the sandbox
 * and without it (the {@code sandbox: none} opt-out), and what the sandbox costs per case. Attacks that would harm the
 * machine unsandboxed (the fork bomb, the 8 GB allocation, killing the parent, the memory floods, the denied system
 * calls) run only in the sandbox.
 *
 * <pre>
 * mvn -B -q -pl arena-junit-engine test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.agentarena.junit.engine.AdversarialFigures
 * </pre>
 */
public final class AdversarialFigures {

    private static final int OVERHEAD_RUNS = 30;

    private AdversarialFigures() {
    }

    public static void main(String[] args) throws Exception {
        CodeExecScorer scorer = new CodeExecScorer();
        Path project = Paths.get("").toAbsolutePath();
        String probe = "arena-escape-probe-" + UUID.randomUUID();
        Path[] escapes = {project.resolve("target").resolve(probe), Paths.get(System.getProperty("user.home"))
                .resolve(probe)};
        Map<String, Supplier<String>> attacks = new LinkedHashMap<>();
        attacks.put("infinite loop (timeout 2s)", HostilePrograms::infiniteLoop);
        attacks.put("1 GB of output", HostilePrograms::oneGigabyteOfOutput);
        attacks.put("read every /proc/*/environ and cmdline",
                () -> HostilePrograms.readEveryProcess(ProcessHandle.current().pid()));
        attacks.put("read /etc/passwd, ~/.m2, the project's pom.xml", () -> HostilePrograms.readHostFiles(
                "/etc/passwd", System.getProperty("user.home") + "/.m2", project.resolve("pom.xml").toString()));
        attacks.put("write outside the temporary directory", () -> HostilePrograms.writeFiles(
                escapes[0].toString(), escapes[1].toString()));
        attacks.put("daemons (setsid, double fork)", HostilePrograms::startDaemons);
        attacks.put("canary secret in the JVM's environment",
                () -> HostilePrograms.huntTheCanary("ARENA_CANARY_SECRET"));
        attacks.put("fork bomb", HostilePrograms::forkBomb);
        attacks.put("8 GB allocation", HostilePrograms::allocateEightGigabytes);
        attacks.put("kill the parent", () -> HostilePrograms.killTheParent(ProcessHandle.current().pid()));
        attacks.put("every system call the filter denies", () -> HostilePrograms.callEach(
                SandboxFacts.deniedSystemCalls()));
        attacks.put("1 GiB in memfd files", () -> HostilePrograms.memfdFlood(1024));
        attacks.put("1 GiB of System V shared memory", () -> HostilePrograms.sysvSharedMemoryFlood(1024));
        attacks.put("4 x 100 MiB shared mappings (memory_mb 128)", () -> HostilePrograms.sharedMappingFlood(4, 100));
        attacks.put("512 MiB in /tmp (memory_mb 128, tmp_mb 1024)", () -> HostilePrograms.fileFlood("/tmp", 512));
        attacks.put("2 million empty files in /tmp (memory_mb 64)", () -> HostilePrograms.inodeFlood(2_000_000));

        System.out.println("| Attack | Unsandboxed (`sandbox: none`) | Sandboxed (bwrap) |");
        System.out.println("|---|---|---|");
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            AtomicInteger accepted = new AtomicInteger();
            Thread acceptor = new Thread(() -> {
                while (!listener.isClosed()) {
                    try (Socket socket = listener.accept()) {
                        accepted.incrementAndGet();
                    }
                    catch (IOException e) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            attacks.put("TCP to a loopback listener", () -> HostilePrograms.connectToLoopback(
                    listener.getLocalPort()));
            for (Map.Entry<String, Supplier<String>> attack : attacks.entrySet()) {
                boolean harmful = List.of("fork bomb", "8 GB allocation", "kill the parent").contains(attack.getKey())
                        || attack.getKey().contains("iB") || attack.getKey().contains("million")
                        // as root, unsandboxed, these would reach kexec_load, init_module, msgget... of the host
                        || attack.getKey().contains("system call");
                Map<String, Object> options = new LinkedHashMap<>();
                for (String option : List.of("memory_mb", "tmp_mb")) {
                    java.util.regex.Matcher value = java.util.regex.Pattern.compile(option + " (\\d+)")
                            .matcher(attack.getKey());
                    if (value.find()) {
                        options.put(option, Integer.parseInt(value.group(1)));
                        options.put("timeout_seconds", 60);
                    }
                }
                String before = harmful ? "not run (would harm the machine)"
                        : describe(scorer, attack.getValue().get(), "none", accepted, escapes, options);
                String after = describe(scorer, attack.getValue().get(), "bwrap", accepted, escapes, options);
                System.out.println("| " + attack.getKey() + " | " + before + " | " + after + " |");
            }
        }
        overhead(scorer);
    }

    private static String describe(CodeExecScorer scorer, String code, String sandbox, AtomicInteger accepted,
            Path[] escapes, Map<String, Object> options) throws Exception {
        TestScoringContext context = TestScoringContext.forScorer("code_exec").with("sandbox", sandbox)
                .with("python", Installations.python("python3", System.getenv()).executable())
                .with("timeout_seconds", 2).with("max_processes", 32);
        for (Map.Entry<String, Object> option : options.entrySet()) {
            context = context.with(option.getKey(), option.getValue());
        }
        int acceptedBefore = accepted.get();
        long started = System.nanoTime();
        ScoreResult result;
        ProcessWatch watch = ProcessWatch.start();
        try {
            result = scorer.score(code, null, context);
        }
        catch (RuntimeException e) {
            watch.close();
            return "error: " + e.getMessage();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        watch.close();
        Map<Long, String> survivors = new LinkedHashMap<>(watch.survivors());
        // A double-forked daemon leaves the JVM's tree before the watch sees it: look for the suite's sleeps too.
        Thread.sleep(200);
        ProcessHandle.allProcesses().filter(handle -> handle.info().commandLine()
                .filter(line -> line.endsWith("sleep 313") || line.endsWith("sleep 314")).isPresent())
                .forEach(handle -> survivors.put(handle.pid(), handle.info().commandLine().orElse("?")));
        survivors.keySet().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "%.1fs", seconds));
        if (result.detail().get("memory_peak_bytes") instanceof Number peak) {
            notes.add("peak " + (peak.longValue() >> 20) + " MiB");
        }
        notes.add("peak " + watch.peak() + " processes");
        if (!survivors.isEmpty()) {
            notes.add(survivors.size() + " survivors " + survivors.values());
        }
        if (accepted.get() > acceptedBefore) {
            notes.add("listener accepted " + (accepted.get() - acceptedBefore) + " connections");
        }
        for (Path escape : escapes) {
            if (Files.deleteIfExists(escape)) {
                notes.add("wrote " + escape);
            }
        }
        String stdout = String.valueOf(result.detail().get("stdout"));
        String summary = stdout.length() > 160 ? stdout.substring(0, 160) + "…" : stdout;
        return ("`" + result.reason() + "`; " + String.join(", ", notes) + "; stdout: " + summary.replace('\n', ' ')
                .replace("|", "\\|")).replace("\r", "");
    }

    /** The median time of a trivial program, sandboxed and not, interleaved in the same run. */
    private static void overhead(CodeExecScorer scorer) throws IOException {
        // The same interpreter both ways: the one the sandbox would pick (not a slower shim on the PATH).
        TestScoringContext context = TestScoringContext.forScorer("code_exec").with("python",
                Installations.python("python3", System.getenv()).executable());
        long[] bare = new long[OVERHEAD_RUNS];
        long[] sandboxed = new long[OVERHEAD_RUNS];
        for (String sandbox : List.of("none", "bwrap")) {
            scorer.score("pass", null, context.with("sandbox", sandbox));
        }
        for (int i = 0; i < OVERHEAD_RUNS; i++) {
            long start = System.nanoTime();
            scorer.score("pass", null, context.with("sandbox", "none"));
            bare[i] = System.nanoTime() - start;
            start = System.nanoTime();
            scorer.score("pass", null, context.with("sandbox", "bwrap"));
            sandboxed[i] = System.nanoTime() - start;
        }
        double bareMs = median(bare) / 1e6;
        double sandboxedMs = median(sandboxed) / 1e6;
        System.out.printf(Locale.ROOT, "%nTrivial program, median of %d: unsandboxed %.1f ms, sandboxed %.1f ms, "
                + "overhead %.1f ms per case (x%.2f)%n", OVERHEAD_RUNS, bareMs, sandboxedMs, sandboxedMs - bareMs,
                sandboxedMs / bareMs);
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
    }
}
