package dev.agentarena.junit.engine.models.openai;

import java.util.function.LongSupplier;

/**
 * At most {@code rpm} request starts per minute for one model; 0 means no limit.
 *
 * <p>Starts are spaced evenly, 60/rpm seconds apart, rather than allowed in bursts: providers enforce their limits
 * over windows shorter than a minute, and even spacing never trips them.
 */
final class RateLimit {

    /** Waits; replaced in tests by a fake clock. */
    interface Sleeper {
        void sleepNanos(long nanos) throws InterruptedException;
    }

    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final Sleeper sleeper;
    private long nextStart;
    private boolean started;

    RateLimit(int requestsPerMinute, LongSupplier nanoClock, Sleeper sleeper) {
        this.intervalNanos = requestsPerMinute > 0 ? 60_000_000_000L / requestsPerMinute : 0;
        this.nanoClock = nanoClock;
        this.sleeper = sleeper;
    }

    static RateLimit system(int requestsPerMinute) {
        return new RateLimit(requestsPerMinute, System::nanoTime,
                nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)));
    }

    /** Waits for this caller's start slot. */
    void acquire() throws InterruptedException {
        if (intervalNanos == 0) {
            return;
        }
        long slot;
        synchronized (this) {
            long now = nanoClock.getAsLong();
            slot = !started || now - nextStart > 0 ? now : nextStart;
            nextStart = slot + intervalNanos;
            started = true;
        }
        long wait = slot - nanoClock.getAsLong();
        if (wait > 0) {
            sleeper.sleepNanos(wait);
        }
    }
}
