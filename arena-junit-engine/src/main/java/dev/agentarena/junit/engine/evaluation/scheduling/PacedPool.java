package dev.agentarena.junit.engine.evaluation.scheduling;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.agentarena.junit.engine.models.ModelEndpoint;

/**
 * The pool of one self-paced model's cases ({@link ModelEndpoint.Pacing}: an {@code openai:} key that learned its
 * provider's limits): as many threads as the model's pace wants in flight, never fewer than {@code arena.concurrency},
 * resized before and after each case as the model learns. A fixed pool would either keep a fast provider well below
 * its limit or queue cases long enough to count against their task's time limit.
 */
final class PacedPool implements Executor {

    private final ThreadPoolExecutor pool;
    private final ModelEndpoint.Pacing pacing;
    private final int floor;
    // guarded by this
    private int size;

    PacedPool(ModelEndpoint.Pacing pacing, int floor, ThreadFactory threads) {
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
