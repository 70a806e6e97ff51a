package dev.agentarena.junit.engine.evaluation.scheduling;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.apiguardian.api.API;

/**
 * Holds calls into user code to their time limits, for one run. A call arms its thread's {@link Watch}; once the
 * limit passes, the watchdog interrupts that thread, and if the call has still not returned after a grace period it
 * gives the call up: the watch's {@code onStuck} action lets the rest of the case go on elsewhere (on a replacement,
 * see {@link Lane#givenUp}), and the stuck thread is left behind.
 *
 * <p>One daemon thread looks at the watches every {@value #TICK_MILLIS} ms. Each thread that runs calls has one
 * watch, armed again for each call (a thread runs one call at a time): a call costs a lock on its own watch, no
 * object and no shared-map insertion. The watch of a thread that has ended is let go of at the next look.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Watchdog implements AutoCloseable {

    static final long TICK_MILLIS = 50;

    /** How long an interrupted call may take to return before it is given up. */
    static final Duration GRACE = Duration.ofSeconds(1);

    /** Every thread's watch, armed or not. */
    private final Set<Watch> open = ConcurrentHashMap.newKeySet();
    /** The current thread's watch (which does not point back here: a thread outliving the run keeps no watchdog). */
    private final ThreadLocal<Watch> mine = new ThreadLocal<>();
    private final Thread thread;
    private volatile boolean closed;

    Watchdog() {
        thread = new Thread(this::patrol, "arena-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Starts watching a call on the current thread, until {@link Watch#end}; the thread must not start another call
     * before then.
     *
     * @param limit how long it may take
     * @param onStuck what to do when it has not returned a grace period after being interrupted; runs on the
     *        watchdog's thread
     */
    public Watch watch(Duration limit, Runnable onStuck) {
        Watch watch = mine.get();
        if (watch == null) {
            watch = new Watch(Thread.currentThread());
            mine.set(watch);
            open.add(watch);
        }
        watch.arm(System.nanoTime() + limit.toNanos(), onStuck);
        return watch;
    }

    private void patrol() {
        while (!closed) {
            long now = System.nanoTime();
            for (Watch watch : open) {
                if (!watch.check(now)) {
                    open.remove(watch);
                }
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
    public enum Ending {
        /** It returned within its limit. */
        IN_TIME,
        /** It returned after its limit, once interrupted. */
        INTERRUPTED,
        /** It did not return in time even when interrupted, and was given up. */
        GIVEN_UP
    }

    /**
     * One thread's watch, armed for one call at a time; its state changes under its own lock, so an interrupt never
     * outlives the call, and never reaches the thread's next call.
     */
    public static final class Watch {

        private final Thread caller;
        /** Whether a call is under watch: from {@link #arm} to {@link #end}. */
        private boolean armed;
        private long deadline;
        private Runnable onStuck;
        private boolean interrupted;
        private long interruptedAt;
        private Ending ending;

        Watch(Thread caller) {
            this.caller = caller;
        }

        synchronized void arm(long deadline, Runnable onStuck) {
            this.armed = true;
            this.deadline = deadline;
            this.onStuck = onStuck;
            this.interrupted = false;
            this.ending = null;
        }

        /**
         * Interrupts the call past its deadline, and gives it up a grace period later.
         *
         * @return whether to keep looking at this watch: not once its thread has ended
         */
        boolean check(long now) {
            Runnable stuck;
            synchronized (this) {
                if (!armed || ending != null) {
                    return caller.isAlive();
                }
                if (!interrupted) {
                    if (now - deadline >= 0) {
                        interrupted = true;
                        interruptedAt = now;
                        caller.interrupt();
                    }
                    return true;
                }
                if (now - interruptedAt < GRACE.toNanos()) {
                    return true;
                }
                ending = Ending.GIVEN_UP;
                // taken now: once the call returns, its thread may arm this watch for another call
                stuck = onStuck;
            }
            stuck.run();
            return true;
        }

        /**
         * Ends the watch when the call returns, on the caller's thread. A call that was interrupted has its thread's
         * interrupt status cleared, so the next call starts clean.
         */
        public Ending end() {
            synchronized (this) {
                if (ending == null) {
                    ending = interrupted ? Ending.INTERRUPTED : Ending.IN_TIME;
                }
                if (interrupted) {
                    Thread.interrupted();
                }
                armed = false;
                onStuck = null;
                return ending;
            }
        }
    }
}
