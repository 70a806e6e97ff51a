package dev.agentarena.samples.bench;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * How close the engine's call pipeline comes to the ideal wall time of {@code cases × latency / concurrency}.
 *
 * <p>Runs in one JVM, after a warm-up: (1) a baseline, the same number of 50 ms sleeps on a plain pool of the same
 * size, which is the best any pipeline can do here; (2) the engine on {@link BenchmarkEval} through the JUnit
 * launcher, with {@code arena.concurrency=32} and 50 ms simulated latency. Prints both as ratios to the ideal.
 *
 * <pre>mvn -B -q install -DskipTests &amp;&amp; mvn -B -q -f samples/pom.xml test-compile exec:java@benchmark</pre>
 */
public final class PipelineBenchmark {

    private static final int CONCURRENCY = 32;
    private static final int LATENCY_MS = 50;

    private PipelineBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        double ideal = (double) BenchmarkEval.CASES * LATENCY_MS / CONCURRENCY;
        runEngine();
        baseline();
        List<Double> engine = new ArrayList<>();
        List<Double> base = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            base.add(baseline());
            engine.add(runEngine());
        }
        double bestBase = base.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double bestEngine = engine.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        System.out.printf(Locale.ROOT, "cases=%d latency=%dms concurrency=%d ideal=%.0fms%n", BenchmarkEval.CASES,
                LATENCY_MS, CONCURRENCY, ideal);
        System.out.printf(Locale.ROOT, "baseline (plain pool of sleeps): runs=%s best=%.0fms ratio-to-ideal=%.3f%n",
                format(base), bestBase, bestBase / ideal);
        System.out.printf(Locale.ROOT, "engine (launcher, 1000 cases, 1000 tests): runs=%s best=%.0fms "
                + "ratio-to-ideal=%.3f ratio-to-baseline=%.3f%n", format(engine), bestEngine, bestEngine / ideal,
                bestEngine / bestBase);
    }

    private static double runEngine() throws Exception {
        Path output = Files.createTempDirectory("arena-bench");
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(BenchmarkEval.class))
                .configurationParameter("arena.concurrency", String.valueOf(CONCURRENCY))
                .configurationParameter("arena.sim.latency-ms", String.valueOf(LATENCY_MS))
                .configurationParameter("arena.output.dir", output.toString())
                .configurationParameter("arena.models.sim_small.accuracy", "1.0")
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        PrintStreamSilencer silence = PrintStreamSilencer.start();
        long start = System.nanoTime();
        try {
            launcher.execute(request, summary);
        }
        finally {
            silence.stop();
        }
        double millis = (System.nanoTime() - start) / 1e6;
        TestExecutionSummary result = summary.getSummary();
        if (result.getTestsSucceededCount() != BenchmarkEval.CASES) {
            throw new IllegalStateException("expected " + BenchmarkEval.CASES + " passing tests, got "
                    + result.getTestsSucceededCount() + " of " + result.getTestsFoundCount());
        }
        return millis;
    }

    private static double baseline() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY);
        long start = System.nanoTime();
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < BenchmarkEval.CASES; i++) {
            futures.add(pool.submit(() -> {
                Thread.sleep(LATENCY_MS);
                return null;
            }));
        }
        for (Future<?> future : futures) {
            future.get();
        }
        double millis = (System.nanoTime() - start) / 1e6;
        pool.shutdown();
        return millis;
    }

    private static String format(List<Double> values) {
        List<String> parts = new ArrayList<>();
        values.forEach(v -> parts.add(String.format(Locale.ROOT, "%.0f", v)));
        return parts.toString();
    }
}
