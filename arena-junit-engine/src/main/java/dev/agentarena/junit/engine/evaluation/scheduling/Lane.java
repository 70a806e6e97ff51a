package dev.agentarena.junit.engine.evaluation.scheduling;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;

import org.apiguardian.api.API;

/**
 * Where a case runs, as {@link CaseScheduler} chose: its pool, whether its scorers take a scoring slot, how a worker
 * the {@link Watchdog} gave up is replaced, and how much longer its task may wait. On the call and compute pools
 * (fixed, {@code arena.concurrency} threads at most) scoring takes no slot and a stuck worker is replaced by one more
 * thread; on the paced and batched pools (larger) scoring takes one of {@code arena.concurrency} slots, and a worker
 * stuck in a scorer gives its slot's place to one more.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Lane {

    /** The paths a case can take; {@code docs/architecture/engine.md} tells when each is chosen. */
    enum Path {
        CALL, COMPUTE, PACED, BATCHED
    }

    private final Path path;
    private final Executor pool;
    private final CasePools pools;
    private final Optional<Duration> taskWait;

    Lane(Path path, Executor pool, CasePools pools, Optional<Duration> taskWait) {
        this.path = path;
        this.pool = pool;
        this.pools = pools;
        this.taskWait = taskWait;
    }

    Path path() {
        return path;
    }

    /** Runs the case's work on the lane's pool. */
    public void execute(Runnable work) {
        pool.execute(work);
    }

    private boolean fixed() {
        return path == Path.CALL || path == Path.COMPUTE;
    }

    /**
     * Takes a scoring slot before a case's scorers run, on a lane whose pool is larger than {@code arena.concurrency}.
     *
     * @return whether a slot was taken, to give back with {@link #scored}
     */
    public boolean scoring() throws InterruptedException {
        if (fixed()) {
            return false;
        }
        pools.scoringSlots().acquire();
        return true;
    }

    /** Gives back the slot {@link #scoring} took. */
    public void scored(boolean slot) {
        if (slot) {
            pools.scoringSlots().release();
        }
    }

    /**
     * The watchdog gave up a worker of this lane in a step (a scorer's when {@code inScorer}), before the case goes on
     * on another: a fixed pool gets one more thread, so the run keeps its concurrency; on a larger pool the stuck
     * scorer keeps its slot, so one more slot is released.
     */
    public void givenUp(boolean inScorer) {
        if (fixed()) {
            pools.replaceStuckWorker((ThreadPoolExecutor) pool);
        }
        else if (inScorer) {
            pools.scoringSlots().release();
        }
    }

    /** How much longer than its limit a case's task may take on this lane: a batch's longest wait, else none. */
    public Optional<Duration> taskWait() {
        return taskWait;
    }
}
