package dev.agentarena.junit.engine.evaluation.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The read-ahead ahead: results in source order whatever order the work finishes in, never more than the window
 * read ahead, failures surfaced to the consumer, in-flight work cancelled on close. Work is held and released with
 * latches, never timed; the waits only bound a hang.
 */
class ReadAheadWindowTest {

    private static final long HANG_SECONDS = 30;

    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    /** Starts the work on the test's pool, as the engine starts a case on the run's. */
    private <R> Function<Integer, Future<R>> submitted(Function<Integer, R> work) {
        return item -> executor.submit(() -> work.apply(item));
    }

    @AfterEach
    void stopExecutor() {
        executor.shutdownNow();
    }

    @Test
    void handsResultsBackInSourceOrderWhenLaterItemsFinishFirst() throws InterruptedException {
        // every item waits for its successor to finish first: completion order is the reverse of source order
        int items = 4;
        Map<Integer, CountDownLatch> finished = new ConcurrentHashMap<>();
        IntStream.range(0, items + 1).forEach(i -> finished.put(i, new CountDownLatch(1)));
        finished.get(items).countDown();
        List<Integer> completionOrder = new ArrayList<>();
        Function<Integer, String> work = item -> {
            await(finished.get(item + 1));
            synchronized (completionOrder) {
                completionOrder.add(item);
            }
            finished.get(item).countDown();
            return "result " + item;
        };

        List<String> results = new ArrayList<>();
        try (ReadAheadWindow<Integer, String> ahead =
                new ReadAheadWindow<>(source(items).iterator(), submitted(work),
                items)) {
            ahead.forEachRemaining(results::add);
        }

        assertThat(completionOrder).containsExactly(3, 2, 1, 0);
        assertThat(results).containsExactly("result 0", "result 1", "result 2", "result 3");
    }

    @Test
    void readsNoMoreThanTheWindowAheadOfTheConsumerAndRefillsItHalfAtATime() {
        int window = 4;
        CountingSource source = new CountingSource(10);
        List<Integer> readWhenConsumed = new ArrayList<>();

        try (ReadAheadWindow<Integer, Integer> ahead =
                new ReadAheadWindow<>(source, submitted(item -> item), window)) {
            assertThat(source.read()).as("read before the first result is asked for").isEqualTo(window);
            while (ahead.hasNext()) {
                int item = ahead.next();
                readWhenConsumed.add(source.read());
                assertThat(source.read()).as("read after consuming item %d", item)
                        .isLessThanOrEqualTo(item + 1 + window);
            }
        }

        // once half the window is consumed, it is filled again at once (one wake-up of the pool per batch, not per
        // item), until the source runs dry
        assertThat(readWhenConsumed).containsExactly(4, 6, 6, 8, 8, 10, 10, 10, 10, 10);
    }

    @Test
    void growsPastTheWindowWhileItsItemsWeighLittleUpToItsMostAndOneItemPastTheBudget() {
        assertThat(readBeforeTheFirstResult(40, 1)).as("weight 1, budget 10: one past the budget").isEqualTo(11);
        assertThat(readBeforeTheFirstResult(40, 0)).as("weightless: up to the most").isEqualTo(12);
        assertThat(readBeforeTheFirstResult(40, 6)).as("heavy: the window, never less").isEqualTo(4);
        assertThat(readBeforeTheFirstResult(7, 0)).as("a short source").isEqualTo(7);
    }

    @Test
    void aGrownWindowIsRefilledHalfAWindowBelowWhatItReachedAndAHeavyOneAsBefore() {
        assertThat(readWhenEachIsConsumed(20, 1)).containsExactly(11, 13, 13, 15, 15, 17, 17, 19, 19, 20, 20, 20, 20,
                20, 20, 20, 20, 20, 20, 20);
        // items too heavy to grow for: the window of four, refilled at half, as without growth
        assertThat(readWhenEachIsConsumed(10, 6)).containsExactly(4, 6, 6, 8, 8, 10, 10, 10, 10, 10);
    }

    /** A window of 4 that may grow to 12 while its items weigh at most 10. */
    private ReadAheadWindow<Integer, Integer> growing(Iterator<Integer> source, long itemWeight) {
        return new ReadAheadWindow<>(source, submitted(item -> item), 4,
                new ReadAheadWindow.Growth<>(12, item -> itemWeight, 10));
    }

    private int readBeforeTheFirstResult(int items, long itemWeight) {
        CountingSource source = new CountingSource(items);
        try (ReadAheadWindow<Integer, Integer> ahead = growing(source, itemWeight)) {
            return source.read();
        }
    }

    private List<Integer> readWhenEachIsConsumed(int items, long itemWeight) {
        CountingSource source = new CountingSource(items);
        List<Integer> read = new ArrayList<>();
        List<Integer> results = new ArrayList<>();
        try (ReadAheadWindow<Integer, Integer> ahead = growing(source, itemWeight)) {
            while (ahead.hasNext()) {
                results.add(ahead.next());
                read.add(source.read());
            }
        }
        assertThat(results).as("every item, in order").containsExactlyElementsOf(
                IntStream.range(0, items).boxed().toList());
        return read;
    }

    @Test
    void anEmptySourceHasNothingAndSaysSo() {
        try (ReadAheadWindow<Integer, Integer> ahead =
                new ReadAheadWindow<>(source(0).iterator(), submitted(item -> item),
                2)) {
            assertThat(ahead.hasNext()).isFalse();
            assertThatThrownBy(ahead::next).isInstanceOf(NoSuchElementException.class);
        }
    }

    @Test
    void aRuntimeExceptionFromTheWorkReachesTheConsumerAsItself() {
        IllegalStateException failure = new IllegalStateException("model call 1 broke");
        try (ReadAheadWindow<Integer, Integer> ahead =
                new ReadAheadWindow<>(source(3).iterator(), submitted(item -> {
            if (item == 1) {
                throw failure;
            }
            return item;
        }), 3)) {
            assertThat(ahead.next()).isEqualTo(0);
            assertThatThrownBy(ahead::next).isSameAs(failure);
            // the failure closes the ahead: nothing of it is left in flight
            assertThat(ahead.hasNext()).isFalse();
        }
    }

    @Test
    void anErrorFromTheWorkReachesTheConsumerAsItself() {
        AssertionError failure = new AssertionError("task asserted");
        try (ReadAheadWindow<Integer, Integer> ahead =
                new ReadAheadWindow<>(source(2).iterator(), submitted(item -> {
            throw failure;
        }), 2)) {
            assertThatThrownBy(ahead::next).isSameAs(failure);
        }
    }

    @Test
    void closeCancelsTheWorkStillInFlight() throws InterruptedException {
        int window = 3;
        CountDownLatch allStarted = new CountDownLatch(window);
        CountDownLatch allInterrupted = new CountDownLatch(window);
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger finished = new AtomicInteger();
        CountingSource source = new CountingSource(10);

        ReadAheadWindow<Integer, Integer> ahead = new ReadAheadWindow<>(source, submitted(item -> {
            allStarted.countDown();
            try {
                never.await(HANG_SECONDS, TimeUnit.SECONDS);
                finished.incrementAndGet();
            }
            catch (InterruptedException e) {
                allInterrupted.countDown();
            }
            return item;
        }), window);
        assertThat(allStarted.await(HANG_SECONDS, TimeUnit.SECONDS)).as("all %d items started", window).isTrue();

        ahead.close();

        assertThat(allInterrupted.await(HANG_SECONDS, TimeUnit.SECONDS)).as("every item in flight interrupted")
                .isTrue();
        assertThat(finished).hasValue(0);
        assertThat(ahead.hasNext()).isFalse();
        assertThat(source.read()).as("nothing more is read once closed").isEqualTo(window);
    }

    private static List<Integer> source(int size) {
        List<Integer> items = new ArrayList<>();
        IntStream.range(0, size).forEach(items::add);
        return items;
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(HANG_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the item before never finished");
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The items 0..size-1, counting how many were read. */
    private static final class CountingSource implements Iterator<Integer> {

        private final int size;
        private final AtomicInteger read = new AtomicInteger();

        CountingSource(int size) {
            this.size = size;
        }

        int read() {
            return read.get();
        }

        @Override
        public boolean hasNext() {
            return read.get() < size;
        }

        @Override
        public Integer next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return read.getAndIncrement();
        }
    }
}
