package dev.agentarena.junit.engine.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Measures the heap of a run started by any launcher (the console launcher, Surefire's fork), for
 * {@code bench/streaming.sh}: registered through {@code ServiceLoader}, it does nothing unless the system property
 * {@code arena.bench.heap-report} names a file, to which it appends one line when the test plan has run: tests, wall
 * time, peak heap in use, peak live heap after a collection, and the live heap at the end, when the launcher's
 * {@code TestPlan} and the engine's tree are still reachable.
 */
public final class HeapReport implements TestExecutionListener {

    /** The system property naming the file to append to. */
    public static final String PROPERTY = "arena.bench.heap-report";

    private final String target = System.getProperty(PROPERTY);
    private HeapWatch heap;
    private final AtomicLong tests = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private long start;

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        if (target == null) {
            return;
        }
        heap = new HeapWatch();
        heap.reset();
        start = System.nanoTime();
    }

    @Override
    public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
        if (target != null && identifier.isTest()) {
            tests.incrementAndGet();
            if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                failed.incrementAndGet();
            }
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        if (target == null) {
            return;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long live = heap.liveNow();
        String line = String.format(Locale.ROOT, "tests=%d failed=%d wall=%.1fs peak_heap_used=%.1fMB "
                + "peak_live_after_gc=%.1fMB live_at_end=%.1fMB max_heap=%.0fMB%n", tests.get(), failed.get(), seconds,
                HeapWatch.mb(heap.peakUsed()), HeapWatch.mb(heap.peakLive()), HeapWatch.mb(live),
                HeapWatch.mb(Runtime.getRuntime().maxMemory()));
        try {
            Path file = Paths.get(target);
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
