package dev.agentarena.junit.engine.datasets;

import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import org.apiguardian.api.API;

/**
 * A dataset file's rows read and parsed on a thread of their own, a few batches ahead of the thread that evaluates
 * them. That thread also hands every result to the outputs, and in a large run it is the one the run waits for: the
 * parse of a row (its JSON, its checks, its case) costs about as much as everything else it does per case, and the
 * second core is otherwise idle most of the time.
 *
 * <p>Only for files: a dataset method's stream is the user's code, which may rely on the thread that called it. The
 * rows come in the file's order and with the same values; what the file's reader throws is thrown by {@link #hasNext}
 * at the same position, after every row read before it. At most {@value #BATCH} rows times {@value #BATCHES} plus two
 * batches are held ahead. Closing stops the reading thread, which closes the file.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RowsReadAhead implements DatasetStream {

    /**
     * Rows per hand-off: one wake-up of either thread per batch, not per row, as a wake-up costs more than reading a
     * row; 256 rows ahead are a few hundred kilobytes.
     */
    static final int BATCH = 256;

    /** Batches waiting between the threads. */
    static final int BATCHES = 2;

    /** How long closing waits for the reading thread to close the file. */
    private static final long CLOSE_WAIT_MS = 2000;

    /**
     * Rows handed over together: {@code size} rows, then, in the last batch only, what the file's reader threw in
     * their place ({@code failure}) or the end of the file ({@code last}).
     */
    private record Batch(DatasetRow[] rows, int size, Throwable failure, boolean last) {
    }

    /** Before the first batch. */
    private static final Batch START = new Batch(new DatasetRow[0], 0, null, false);

    /** After the last row, or after a failure thrown. */
    private static final Batch END = new Batch(new DatasetRow[0], 0, null, true);

    private final BlockingQueue<Batch> batches = new ArrayBlockingQueue<>(BATCHES);
    private final Thread reader;
    private volatile boolean closed;
    private Batch current = START;
    private int at;

    private RowsReadAhead(DatasetStream rows, String name) {
        this.reader = new Thread(() -> read(rows), "arena-rows " + name);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * The rows of a dataset file, read ahead on a thread of their own.
     *
     * @param rows the file's rows, read from now on by that thread only
     * @param name what the thread is called after: the dataset
     */
    public static DatasetStream of(DatasetStream rows, String name) {
        return new RowsReadAhead(rows, name);
    }

    private void read(DatasetStream rows) {
        try {
            DatasetRow[] batch = new DatasetRow[BATCH];
            int size = 0;
            boolean more = true;
            while (more && !closed) {
                Throwable failure = null;
                try {
                    more = rows.hasNext();
                    if (more) {
                        batch[size++] = rows.next();
                    }
                }
                catch (RuntimeException | Error e) {
                    failure = e;
                    more = false;
                }
                if (size == BATCH || !more) {
                    batches.put(new Batch(batch, size, failure, !more));
                    batch = new DatasetRow[BATCH];
                    size = 0;
                }
            }
        }
        catch (InterruptedException e) {
            // closed while waiting for room
        }
        finally {
            rows.close();
        }
    }

    @Override
    public boolean hasNext() {
        if (closed) {
            return false;
        }
        while (at == current.size()) {
            Throwable failure = current.failure();
            if (failure != null) {
                // thrown once, in its place; the reader stopped there
                current = END;
                at = 0;
                if (failure instanceof RuntimeException runtime) {
                    throw runtime;
                }
                throw (Error) failure;
            }
            if (current.last()) {
                return false;
            }
            try {
                current = batches.take();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while reading the dataset's rows", e);
            }
            at = 0;
        }
        return true;
    }

    @Override
    public DatasetRow next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return current.rows()[at++];
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        reader.interrupt();
        batches.clear();
        try {
            reader.join(CLOSE_WAIT_MS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
