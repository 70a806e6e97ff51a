package dev.agentarena.junit.engine.bench;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.fixtures.StreamingBenchmarkFixture;

/**
 * Runs a generated JSON Lines dataset of N lines through the engine, via the Launcher API as IDEs and build tools do,
 * and reports wall time and heap: the peak heap in use, and the peak live heap (after a collection), which is what
 * the run retains. Run by {@code bench/streaming.sh}, once per size in a fresh JVM, so the numbers compare.
 *
 * <p>Usage: {@code StreamingBenchmark <lines> <work dir> [generate]}. The system property {@code arena.nodes}
 * ({@code all} or {@code summary}) chooses the test tree; with {@code generate} it only writes the dataset, for
 * {@code bench/streaming.sh} to run it through the console launcher or Surefire, where {@link HeapReport} measures.
 */
public final class StreamingBenchmark {

    private StreamingBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        int lines = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Path dir = Paths.get(args.length > 1 ? args[1] : "target/arena-bench").toAbsolutePath();
        Files.createDirectories(dir);
        generate(dir.resolve("arena-bench.jsonl"), lines);
        if (args.length > 2 && args[2].equals("generate")) {
            return;
        }

        HeapWatch heap = new HeapWatch();
        Counting listener = new Counting(heap);
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(StreamingBenchmarkFixture.class))
                .filters(EngineFilter.includeEngines(Constants.ENGINE_ID))
                .configurationParameter(Constants.PROJECT_ROOT, dir.toString())
                .configurationParameter(Constants.OUTPUT_DIR, dir.resolve("out").toString())
                .configurationParameter(Constants.NODES, System.getProperty(Constants.NODES, "all"))
                .build();
        Launcher launcher = LauncherFactory.create();
        heap.reset();
        long start = System.nanoTime();
        launcher.execute(request, listener);
        double seconds = (System.nanoTime() - start) / 1e9;

        System.out.printf(Locale.ROOT, "lines=%d tests=%d failed=%d wall=%.1fs rate=%.0f cases/s "
                + "peak_heap_used=%.1fMB peak_live_after_gc=%.1fMB live_at_end=%.1fMB max_heap=%.0fMB%n",
                lines, listener.tests.get(), listener.failed.get(), seconds, lines / seconds, mb(heap.peakUsed()),
                mb(heap.peakLive()), mb(listener.liveAtEnd), mb(Runtime.getRuntime().maxMemory()));
    }

    /** Every tenth output is wrong, so failures (and their exceptions) are part of the cost. */
    static void generate(Path file, int lines) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            String[] labels = {"billing", "technical", "account", "other"};
            for (int i = 1; i <= lines; i++) {
                String label = labels[i % labels.length];
                String output = i % 10 == 0 ? labels[(i + 1) % labels.length] : label;
                out.write(String.format(Locale.ROOT, "{\"id\": \"case-%07d\", \"input\": \"Classify ticket %d: "
                        + "a customer writes about %s matters, at some length, as customers do.\", "
                        + "\"reference\": \"%s\", \"output\": \"%s\", \"tags\": [\"%s\"]}%n",
                        i, i, label, label, output, label));
            }
        }
    }

    private static double mb(long bytes) {
        return HeapWatch.mb(bytes);
    }

    /** Counts finished tests and keeps nothing else; measures the live heap once the plan has run. */
    private static final class Counting implements TestExecutionListener {

        final AtomicLong tests = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        private final HeapWatch heap;
        long liveAtEnd;

        Counting(HeapWatch heap) {
            this.heap = heap;
        }

        @Override
        public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
            if (identifier.isTest()) {
                tests.incrementAndGet();
                if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                    failed.incrementAndGet();
                }
            }
        }

        @Override
        public void testPlanExecutionFinished(TestPlan testPlan) {
            // The test plan and the engine's tree are still reachable here: this is what the run retains.
            liveAtEnd = heap.liveNow();
            if (Boolean.getBoolean("bench.histogram")) {
                histogram();
            }
        }

        /** What the retained heap is made of, for {@code -Dbench.histogram=true}. */
        private static void histogram() {
            try {
                new ProcessBuilder("jcmd", String.valueOf(ProcessHandle.current().pid()), "GC.class_histogram")
                        .inheritIO().start().waitFor();
            }
            catch (IOException e) {
                System.err.println("jcmd failed: " + e);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
