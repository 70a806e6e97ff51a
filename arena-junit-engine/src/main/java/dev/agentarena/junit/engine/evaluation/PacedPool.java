package dev.agentarena.junit.engine.evaluation;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.agentarena.junit.engine.models.ModelEndpoint.Pacing;

/**
 * The pool of one self-paced model's cases ({@link Pacing}: an {@code openai:} key that learned its provider's
 * limits): as many threads as the model's pace wants in flight, at least {@code arena.concurrency}, resized as the
 * model learns. It exists because a fixed pool of {@code arena.concurrency} threads (8 by default) keeps a provider
 * that allows 30 requests a second at a latency of half a second below 60% of its limit, while a larger fixed pool
 * would queue cases on the model's pace long enough to count against their task's time limit. Scoring on these
 * threads still takes one of {@code arena.concurrency} slots ({@link EvaluationServices#scoringSlots()}).
 */
final class PacedPool implements Executor {

    private final ThreadPoolExecutor pool;
    private final Pacing pacing;
    private final int floor;
    // guarded by this
    private int size;

    PacedPool(Pacing pacing, int floor, ThreadFactory threads) {
        this.pacing = pacing;
        this.floor = floor;
        this.size = floor;
        this.pool = new ThreadPoolExecutor(floor, floor, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threads);
    }

    @Override
    public void execute(Runnable task) {
        resize();
        pool.execute(() -> {
            try {
                task.run();
            }
            finally {
                resize();
            }
        });
    }

    /** How many threads it has now. */
    synchronized int size() {
        return size;
    }

    private synchronized void resize() {
        int wanted = Math.max(floor, Math.min(pacing.mostInFlight(), pacing.inFlightWanted()));
        if (wanted == size) {
            return;
        }
        // the core size may never exceed the maximum, in either direction of the change
        if (wanted > size) {
            pool.setMaximumPoolSize(wanted);
            pool.setCorePoolSize(wanted);
        }
        else {
            pool.setCorePoolSize(wanted);
            pool.setMaximumPoolSize(wanted);
        }
        size = wanted;
    }

    void shutdownNow() {
        pool.shutdownNow();
    }
}
