package dev.agentarena.junit.engine.evaluation.scheduling;

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
import java.util.function.ToLongFunction;

import org.apiguardian.api.API;

/**
 * Starts work on items ahead of the consumer and hands results back in source order: at most {@code window} items in
 * flight, or up to {@code most} while the items in flight weigh less than a budget ({@link Growth}). It is refilled
 * half a window at a time, not item by item, so a pool faster than the consumer is not woken once per item. Closing
 * it cancels what is in flight; work still queued then never starts.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ReadAheadWindow<T, R> implements Iterator<R>, AutoCloseable {

    /**
     * How far a window may grow past its size while its items are small: to {@code most} items, while the items in
     * flight weigh at most {@code budget} by {@code weight} (one item more may pass it).
     */
    record Growth<T>(int most, ToLongFunction<? super T> weight, long budget) {
    }

    private final Iterator<T> source;
    private final Function<T, ? extends Future<R>> start;
    private final int window;
    private final int most;
    /** How much an item weighs; {@code null} without growth, when no weight is kept. */
    private final ToLongFunction<? super T> weight;
    private final long budget;
    private final Deque<Future<R>> inFlight = new ArrayDeque<>();
    /** The weight of each item in flight, in the same order, as a ring from {@link #firstWeight}; none without growth. */
    private final long[] weights;
    private int firstWeight;
    private long weightInFlight;
    /**
     * How many items were in flight when the window was last filled: it is refilled half a window below that (at
     * {@code window / 2} when it was filled to {@code window}, as it always is without growth).
     */
    private int filledTo;
    private long patienceNanos;
    private Runnable waiting;

    /**
     * @param start starts the work on one item, elsewhere, and returns its future
     * @param window how many items may be in flight at once
     */
    ReadAheadWindow(Iterator<T> source, Function<T, ? extends Future<R>> start, int window) {
        this(source, start, window, null);
    }

    /**
     * @param start starts the work on one item, elsewhere, and returns its future
     * @param window how many items may always be in flight at once
     * @param growth how many more while they are small, or {@code null} for none
     */
    ReadAheadWindow(Iterator<T> source, Function<T, ? extends Future<R>> start, int window, Growth<T> growth) {
        this.source = source;
        this.start = start;
        this.window = window;
        this.most = growth == null ? window : Math.max(window, growth.most());
        this.weight = growth == null ? null : growth.weight();
        this.budget = growth == null ? 0 : growth.budget();
        this.weights = most > window ? new long[most] : null;
        fill();
    }

    private void fill() {
        while (inFlight.size() < most && (inFlight.size() < window || weightInFlight <= budget) && source.hasNext()) {
            T item = source.next();
            if (weights != null) {
                long itemWeight = weight.applyAsLong(item);
                weights[(firstWeight + inFlight.size()) % most] = itemWeight;
                weightInFlight += itemWeight;
            }
            inFlight.add(start.apply(item));
        }
        filledTo = inFlight.size();
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
        if (weights != null) {
            weightInFlight -= weights[firstWeight];
            firstWeight = (firstWeight + 1) % most;
        }
        try {
            R result = await(head);
            if (inFlight.size() <= filledTo - (window - window / 2)) {
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
    public void whileWaiting(long everyNanos, Runnable waiting) {
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
        weightInFlight = 0;
        firstWeight = 0;
    }
}
