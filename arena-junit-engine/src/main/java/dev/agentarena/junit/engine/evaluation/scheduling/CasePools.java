package dev.agentarena.junit.engine.evaluation.scheduling;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.agentarena.junit.engine.models.ModelEndpoint;

/**
 * The threads of one run's cases: the call pool ({@code arena.concurrency} threads), the compute pool (the cores, at
 * most {@code arena.concurrency}), the waiting pool of batched cases (a thread per case), one paced pool per
 * self-paced model key, and the {@code arena.concurrency} scoring slots of the pools larger than that. Each pool is
 * made on first use, its daemon threads inheriting the context class loader of the thread that made it; all are
 * shut down on {@link #close}.
 */
final class CasePools implements AutoCloseable {

    private final int concurrency;
    private final Semaphore scoringSlots;
    private ThreadPoolExecutor callPool;
    /** Written once under the lock, read without it. */
    private volatile ThreadPoolExecutor computePool;
    private ExecutorService waitingPool;
    private final Map<String, PacedPool> pacedPools = new ConcurrentHashMap<>();

    CasePools(int concurrency) {
        this.concurrency = concurrency;
        this.scoringSlots = new Semaphore(concurrency);
    }

    int concurrency() {
        return concurrency;
    }

    /** How many threads {@link #computePool()} has: the cores, at most {@code arena.concurrency}. */
    int computeThreads() {
        return Math.max(1, Math.min(concurrency, Runtime.getRuntime().availableProcessors()));
    }

    synchronized ThreadPoolExecutor callPool() {
        if (callPool == null) {
            callPool = fixedPool("arena-call-", concurrency);
        }
        return callPool;
    }

    ThreadPoolExecutor computePool() {
        ThreadPoolExecutor pool = computePool;
        if (pool != null) {
            return pool;
        }
        synchronized (this) {
            if (computePool == null) {
                computePool = fixedPool("arena-compute-", computeThreads());
            }
            return computePool;
        }
    }

    synchronized ExecutorService waitingPool() {
        if (waitingPool == null) {
            waitingPool = Executors.newCachedThreadPool(threads("arena-batch-case-"));
        }
        return waitingPool;
    }

    PacedPool pacedPool(String modelKey, ModelEndpoint.Pacing pacing) {
        ThreadFactory factory = threads("arena-paced-");
        return pacedPools.computeIfAbsent(modelKey, key -> new PacedPool(pacing, concurrency, factory));
    }

    Semaphore scoringSlots() {
        return scoringSlots;
    }

    /** A worker of a fixed pool is stuck in a call that was given up: the pool gets one more thread. */
    synchronized void replaceStuckWorker(ThreadPoolExecutor pool) {
        pool.setMaximumPoolSize(pool.getMaximumPoolSize() + 1);
        pool.setCorePoolSize(pool.getCorePoolSize() + 1);
    }

    private static ThreadPoolExecutor fixedPool(String namePrefix, int threads) {
        return new ThreadPoolExecutor(threads, threads, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                threads(namePrefix));
    }

    /** Daemon threads named {@code prefix1, prefix2...}, with the current thread's context class loader. */
    private static ThreadFactory threads(String namePrefix) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, namePrefix + count.incrementAndGet());
            thread.setDaemon(true);
            thread.setContextClassLoader(loader);
            return thread;
        };
    }

    @Override
    public synchronized void close() {
        if (callPool != null) {
            callPool.shutdownNow();
        }
        if (computePool != null) {
            computePool.shutdownNow();
        }
        if (waitingPool != null) {
            waitingPool.shutdownNow();
        }
        pacedPools.values().forEach(PacedPool::shutdownNow);
    }
}
