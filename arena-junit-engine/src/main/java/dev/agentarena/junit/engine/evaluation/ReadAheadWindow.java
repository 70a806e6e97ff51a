package dev.agentarena.junit.engine.evaluation;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Starts work on items ahead of the consumer, at most {@code window} at a time, and hands results back in source
 * order.
 *
 * <p>The window is refilled half at a time, not item by item: work started on an idle pool wakes a thread, and a pool
 * that is faster than the consumer (calls that cost nothing) would otherwise be woken, and put back to sleep, once
 * per item. While half the window is still in flight, a pool with fewer threads than that never waits for work.
 *
 * <p>Model calls are I/O-bound and slow; nodes must still be reported in dataset order and one at a time. Reading
 * ahead by a bounded window keeps every worker busy while holding only {@code window} items in memory, however
 * large the dataset.
 */
final class ReadAheadWindow<T, R> implements Iterator<R>, AutoCloseable {

    private final Iterator<T> source;
    private final Function<T, ? extends Future<R>> start;
    private final int window;
    private final Deque<Future<R>> inFlight = new ArrayDeque<>();
    private long patienceNanos;
    private Runnable waiting;

    /**
     * @param start starts the work on one item, elsewhere, and returns its future
     * @param window how many items may be in flight at once
     */
    ReadAheadWindow(Iterator<T> source, Function<T, ? extends Future<R>> start, int window) {
        this.source = source;
        this.start = start;
        this.window = window;
        fill();
    }

    private void fill() {
        while (inFlight.size() < window && source.hasNext()) {
            inFlight.add(start.apply(source.next()));
        }
    }

    @Override
    public boolean hasNext() {
        return !inFlight.isEmpty();
    }

    @Override
    public R next() {
        Future<R> head = inFlight.poll();
        if (head == null) {
            throw new NoSuchElementException();
        }
        try {
            R result = await(head);
            if (inFlight.size() <= window / 2) {
                fill();
            }
            return result;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new CancellationException("interrupted while waiting for a model call");
        }
        catch (ExecutionException e) {
            close();
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new IllegalStateException(cause);
        }
    }

    /** While {@link #next} waits for the next item, {@code waiting} is told every {@code everyNanos}. */
    void whileWaiting(long everyNanos, Runnable waiting) {
        this.patienceNanos = everyNanos;
        this.waiting = waiting;
    }

    private R await(Future<R> head) throws InterruptedException, ExecutionException {
        if (waiting == null) {
            return head.get();
        }
        while (true) {
            try {
                return head.get(patienceNanos, TimeUnit.NANOSECONDS);
            }
            catch (TimeoutException stillWaiting) {
                waiting.run();
            }
        }
    }

    /** Cancels what is still in flight. */
    @Override
    public void close() {
        inFlight.forEach(future -> future.cancel(true));
        inFlight.clear();
    }
}
