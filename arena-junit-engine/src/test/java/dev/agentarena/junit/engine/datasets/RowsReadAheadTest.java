package dev.agentarena.junit.engine.datasets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;

class RowsReadAheadTest {

    /** Rows {@code row-0 ... row-(n-1)}, throwing at {@code failAt} (or never, for -1), counting reads and closes. */
    private static final class Rows implements DatasetStream {
        final int n;
        final int failAt;
        final AtomicInteger read = new AtomicInteger();
        final AtomicBoolean closed = new AtomicBoolean();
        final List<String> threads = new ArrayList<>();

        Rows(int n, int failAt) {
            this.n = n;
            this.failAt = failAt;
        }

        @Override
        public boolean hasNext() {
            if (read.get() == failAt) {
                throw new UncheckedIOException(new IOException("cannot read line " + (failAt + 1) + " of rows.jsonl"));
            }
            return read.get() < n;
        }

        @Override
        public DatasetRow next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            synchronized (threads) {
                threads.add(Thread.currentThread().getName());
            }
            int i = read.getAndIncrement();
            return DatasetRow.of(EvalCase.of("row-" + i, "input " + i, null), null);
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }

    @Test
    void everyRowComesInTheFilesOrderReadOnAThreadOfItsOwnAndTheFileIsClosedAtTheEnd() throws InterruptedException {
        Rows source = new Rows(10 * RowsReadAhead.BATCH + 7, -1);
        List<String> ids = new ArrayList<>();
        try (DatasetStream rows = RowsReadAhead.of(source, "tickets")) {
            while (rows.hasNext()) {
                ids.add(rows.next().caseId());
            }
            assertThat(rows.hasNext()).isFalse();
            assertThatThrownBy(rows::next).isInstanceOf(NoSuchElementException.class);
        }
        assertThat(ids).hasSize(source.n).startsWith("row-0", "row-1").endsWith("row-" + (source.n - 1));
        for (int i = 0; i < ids.size(); i++) {
            assertThat(ids.get(i)).isEqualTo("row-" + i);
        }
        assertThat(source.threads).allMatch(name -> name.equals("arena-rows tickets"));
        assertThat(source.closed).isTrue();
    }

    @Test
    void whatTheReaderThrowsIsThrownInItsPlaceAfterEveryRowReadBeforeIt() {
        Rows source = new Rows(1000, 75);
        List<String> ids = new ArrayList<>();
        DatasetStream rows = RowsReadAhead.of(source, "tickets");

        assertThatThrownBy(() -> {
            while (rows.hasNext()) {
                ids.add(rows.next().caseId());
            }
        }).isInstanceOf(UncheckedIOException.class).hasMessageContaining("cannot read line 76 of rows.jsonl");

        assertThat(ids).hasSize(75).endsWith("row-74");
        assertThat(rows.hasNext()).isFalse();
        rows.close();
        assertThat(source.closed).isTrue();
    }

    @Test
    void closingEarlyStopsTheReaderWhichClosesTheFileHavingReadOnlyAFewBatchesAhead() throws InterruptedException {
        Rows source = new Rows(1_000_000, -1);
        DatasetStream rows = RowsReadAhead.of(source, "large");
        assertThat(rows.next().caseId()).isEqualTo("row-0");
        // the reader fills the hand-off and waits for room
        CountDownLatch settled = new CountDownLatch(1);
        settled.await(200, TimeUnit.MILLISECONDS);

        rows.close();

        assertThat(source.closed).isTrue();
        assertThat(source.read.get()).isLessThanOrEqualTo((RowsReadAhead.BATCHES + 3) * RowsReadAhead.BATCH);
        assertThat(rows.hasNext()).isFalse();
    }
}
