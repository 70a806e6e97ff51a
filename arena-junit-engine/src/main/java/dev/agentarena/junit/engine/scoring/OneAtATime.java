package dev.agentarena.junit.engine.scoring;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.apiguardian.api.API;

/**
 * Lets an eval class's {@code @Scorer} methods be called one at a time, while a call stuck past its time limit holds
 * no one up: once the call holding the turn has held it for three quarters of the scorer's time limit (it is then
 * about to be interrupted, and given up if it does not return), or a call has waited half its own limit (behind a
 * queue of such calls), the waiting call takes the turn. Without that, one hostile output that hangs its scorer would
 * time out the scorers of every later case of the eval; the price is that scorers slower than that under contention
 * run side by side after all, which the docs say.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class OneAtATime {

    private static final long POLL_MILLIS = 50;

    private final Semaphore turn = new Semaphore(1);
    private final long takeAfterNanos;
    private final long waitAtMostNanos;
    // the call holding the turn and since when; guarded by this
    private Thread holder;
    private long heldSince;

    /** @param scorerLimit the scorers' time limit */
    public OneAtATime(Duration scorerLimit) {
        this.takeAfterNanos = scorerLimit.toNanos() / 4 * 3;
        this.waitAtMostNanos = scorerLimit.toNanos() / 2;
    }

    /** Waits for the turn; interruptible, so that the caller's own time limit ends the wait. */
    void enter() throws InterruptedException {
        long waitingSince = System.nanoTime();
        while (!turn.tryAcquire(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
            synchronized (this) {
                long now = System.nanoTime();
                if (holder != null && (now - heldSince >= takeAfterNanos || now - waitingSince >= waitAtMostNanos)) {
                    // taken over from a call past its limit: it no longer gives the turn back
                    hold();
                    return;
                }
            }
        }
        synchronized (this) {
            hold();
        }
    }

    private void hold() {
        holder = Thread.currentThread();
        heldSince = System.nanoTime();
    }

    /** Gives the turn back, unless another call took it over. */
    synchronized void exit() {
        if (holder == Thread.currentThread()) {
            holder = null;
            turn.release();
        }
    }
}
