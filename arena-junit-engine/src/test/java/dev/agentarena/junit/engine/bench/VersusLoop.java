package dev.agentarena.junit.engine.bench;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.fixtures.StreamingBenchmarkFixture;

/**
 * The engine against a hand-written loop ({@link HandWrittenLoop}) on the same recorded file, in the same JVM and
 * the same run: the loop once to warm up, then, {@code rounds} times, the engine (Launcher API,
 * {@code arena.nodes} from the system property, summary by default) and the loop, alternately. Prints each round and
 * the best engine time over the best loop time. Run by {@code bench/versus-loop.sh}.
 *
 * <p>Usage: {@code VersusLoop <lines> <work dir> [rounds]}.
 */
public final class VersusLoop {

    private VersusLoop() {
    }

    public static void main(String[] args) throws IOException {
        int lines = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Path dir = Paths.get(args.length > 1 ? args[1] : "target/arena-bench").toAbsolutePath();
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        Files.createDirectories(dir);
        Path dataset = dir.resolve("arena-bench.jsonl");
        StreamingBenchmark.generate(dataset, lines);
        String nodes = System.getProperty(Constants.NODES, "summary");

        HandWrittenLoop.Outcome warm = HandWrittenLoop.run(dataset, dir.resolve("loop-results.jsonl"));
        System.out.printf(Locale.ROOT, "warm-up loop=%.2fs mean=%.4f%n", warm.seconds(), warm.mean());
        double bestEngine = Double.MAX_VALUE;
        double bestLoop = Double.MAX_VALUE;
        for (int round = 1; round <= rounds; round++) {
            long start = System.nanoTime();
            long cpu = cpu();
            long tests = engine(dir, nodes);
            double engine = (System.nanoTime() - start) / 1e9;
            double engineCpu = (cpu() - cpu) / 1e9;
            cpu = cpu();
            HandWrittenLoop.Outcome loop = HandWrittenLoop.run(dataset, dir.resolve("loop-results.jsonl"));
            double loopCpu = (cpu() - cpu) / 1e9;
            bestEngine = Math.min(bestEngine, engine);
            bestLoop = Math.min(bestLoop, loop.seconds());
            System.out.printf(Locale.ROOT, "round=%d lines=%d nodes=%s tests=%d engine=%.2fs loop=%.2fs ratio=%.2f "
                    + "engine_cpu=%.2fs loop_cpu=%.2fs results_lines=%d load=%s%n", round, lines, nodes, tests, engine,
                    loop.seconds(), engine / loop.seconds(), engineCpu, loopCpu,
                    count(dir.resolve("out/results.jsonl")), load());
        }
        System.out.printf(Locale.ROOT, "lines=%d nodes=%s engine=%.2fs loop=%.2fs ratio=%.2f (best of %d) load=%s%n",
                lines, nodes, bestEngine, bestLoop, bestEngine / bestLoop, rounds, load());
    }

    private static long engine(Path dir, String nodes) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(StreamingBenchmarkFixture.class))
                .filters(EngineFilter.includeEngines(Constants.ENGINE_ID))
                .configurationParameter(Constants.PROJECT_ROOT, dir.toString())
                .configurationParameter(Constants.OUTPUT_DIR, dir.resolve("out").toString())
                .configurationParameter(Constants.NODES, nodes)
                .build();
        AtomicLong tests = new AtomicLong();
        LauncherFactory.create().execute(request, new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
                if (identifier.isTest()) {
                    tests.incrementAndGet();
                }
            }
        });
        return tests.get();
    }

    private static long count(Path file) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        try (var stream = Files.lines(file)) {
            return stream.count();
        }
    }

    /** The process's CPU time so far, in nanoseconds (every thread, the collector's too). */
    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        }
        catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
