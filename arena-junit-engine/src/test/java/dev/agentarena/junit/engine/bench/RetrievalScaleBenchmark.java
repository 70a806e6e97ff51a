package dev.agentarena.junit.engine.bench;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
import dev.agentarena.junit.engine.fixtures.retrieval.RetrievalAtScaleFixture;

/**
 * Runs N generated queries of ten retrieved passages each through three retrieval scorers in summary mode
 * ({@code arena.nodes=summary}), via the Launcher API, and prints the tests, the results written, the wall time and
 * the peak heap the run retains: the live heap after a full collection, taken every half second.
 * {@code RetrievalAtScaleTest} runs it in forked JVMs of a small heap.
 *
 * <p>Usage: {@code RetrievalScaleBenchmark <queries> <work dir>}.
 */
public final class RetrievalScaleBenchmark {

    /** How often the heap a run retains is measured (after a full collection). */
    private static final long SAMPLE_MILLIS = 500;

    private RetrievalScaleBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        int queries = Integer.parseInt(args[0]);
        Path dir = Path.of(args[1]).toAbsolutePath();
        Files.createDirectories(dir);
        generate(dir.resolve("rag-scale.jsonl"), queries);
        HeapWatch heap = new HeapWatch();
        AtomicLong tests = new AtomicLong();
        AtomicLong failedTests = new AtomicLong();
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(RetrievalAtScaleFixture.class))
                .filters(EngineFilter.includeEngines(Constants.ENGINE_ID))
                .configurationParameter(Constants.PROJECT_ROOT, dir.toString())
                .configurationParameter(Constants.OUTPUT_DIR, dir.resolve("out").toString())
                .configurationParameter(Constants.NODES, "summary")
                .build();
        heap.reset();
        AtomicLong peakRetained = new AtomicLong();
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peakRetained.accumulateAndGet(heap.liveNow(), Math::max);
                try {
                    Thread.sleep(SAMPLE_MILLIS);
                }
                catch (InterruptedException e) {
                    return;
                }
            }
        }, "retained-heap");
        sampler.setDaemon(true);
        sampler.start();
        long start = System.nanoTime();
        LauncherFactory.create().execute(request, new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
                if (identifier.isTest()) {
                    tests.incrementAndGet();
                    if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
                        failedTests.incrementAndGet();
                    }
                }
            }
        });
        double seconds = (System.nanoTime() - start) / 1e9;
        sampler.interrupt();
        long results;
        try (var lines = Files.lines(dir.resolve("out/results.jsonl"))) {
            results = lines.count();
        }
        System.out.printf(Locale.ROOT, "queries=%d tests=%d aborted=%d results=%d wall=%.1fs "
                + "peak_retained=%.1fMB max_heap=%.0fMB%n", queries, tests.get(), failedTests.get(), results, seconds,
                HeapWatch.mb(peakRetained.get()), HeapWatch.mb(Runtime.getRuntime().maxMemory()));
    }

    /** Queries q-<i> with two relevant passages, graded 2 and 1, at ranks that vary; every tenth has none retrieved. */
    static void generate(Path file, int queries) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 1; i <= queries; i++) {
                String id = String.format(Locale.ROOT, "q-%07d", i);
                String first = i % 10 == 0 ? "elsewhere-" + i : id + "-" + (i % 7);
                out.write("{\"id\": \"" + id + "\", \"input\": \"question " + i + "\", \"relevant\": {\"" + first
                        + "\": 2, \"" + id + "-" + (i % 3 + 7) + "\": 1}}\n");
            }
        }
    }
}
