package dev.agentarena.junit.engine.evaluation;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Holds calls into user code to their time limits, for one run. A call registers a {@link Watch} on its own thread;
 * once the limit passes, the watchdog interrupts that thread, and if the call has still not returned after a grace
 * period it gives the call up: the watch's {@code onStuck} action lets the rest of the case go on elsewhere, and the
 * stuck thread is left behind.
 *
 * <p>One daemon thread looks at the open watches every {@value #TICK_MILLIS} ms: registering a call costs a map
 * insertion, not a thread handoff, so the guard is nearly free for the calls that finish in time.
 */
final class Watchdog implements AutoCloseable {

    static final long TICK_MILLIS = 50;

    /** How long an interrupted call may take to return before it is given up. */
    static final Duration GRACE = Duration.ofSeconds(1);

    private final Set<Watch> open = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile boolean closed;

    Watchdog() {
        thread = new Thread(this::patrol, "arena-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Starts watching a call on the current thread.
     *
     * @param limit how long it may take
     * @param onStuck what to do when it has not returned a grace period after being interrupted; runs on the
     *        watchdog's thread
     */
    Watch watch(Duration limit, Runnable onStuck) {
        Watch watch = new Watch(Thread.currentThread(), System.nanoTime() + limit.toNanos(), onStuck);
        open.add(watch);
        return watch;
    }

    private void patrol() {
        while (!closed) {
            long now = System.nanoTime();
            for (Watch watch : open) {
                watch.check(now);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(TICK_MILLIS);
            }
            catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }

    /** What became of a watched call. */
    enum Ending {
        /** It returned within its limit. */
        IN_TIME,
        /** It returned after its limit, once interrupted. */
        INTERRUPTED,
        /** It did not return in time even when interrupted, and was given up. */
        GIVEN_UP
    }

    /** One call under watch; its state changes under its own lock, so an interrupt never outlives the call. */
    final class Watch {

        private final Thread caller;
        private final long deadline;
        private final Runnable onStuck;
        private boolean interrupted;
        private long interruptedAt;
        private Ending ending;

        Watch(Thread caller, long deadline, Runnable onStuck) {
            this.caller = caller;
            this.deadline = deadline;
            this.onStuck = onStuck;
        }

        void check(long now) {
            boolean stuck;
            synchronized (this) {
                if (ending != null) {
                    return;
                }
                if (!interrupted) {
                    if (now - deadline >= 0) {
                        interrupted = true;
                        interruptedAt = now;
                        caller.interrupt();
                    }
                    return;
                }
                stuck = now - interruptedAt >= GRACE.toNanos();
                if (stuck) {
                    ending = Ending.GIVEN_UP;
                }
            }
            if (stuck) {
                open.remove(this);
                onStuck.run();
            }
        }

        /**
         * Ends the watch when the call returns, on the caller's thread. A call that was interrupted has its thread's
         * interrupt status cleared, so the next call starts clean.
         */
        Ending end() {
            open.remove(this);
            synchronized (this) {
                if (ending == null) {
                    ending = interrupted ? Ending.INTERRUPTED : Ending.IN_TIME;
                }
                if (interrupted) {
                    Thread.interrupted();
                }
                return ending;
            }
        }
    }
}
