package dev.agentarena.junit.engine.datasets;

import java.util.ArrayList;
import java.util.List;
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

    /** Rows per hand-off: one wake-up of either thread per batch, not per row. */
    static final int BATCH = 32;

    /** Batches waiting between the threads. */
    static final int BATCHES = 2;

    /** How long closing waits for the reading thread to close the file. */
    private static final long CLOSE_WAIT_MS = 2000;

    /** What the file's reader threw, in its place among the rows. */
    private record Failure(Throwable thrown) {
    }

    private final BlockingQueue<List<Object>> batches = new ArrayBlockingQueue<>(BATCHES);
    private final Thread reader;
    private volatile boolean closed;
    private List<Object> current = List.of();
    private int at;
    private boolean ended;

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
            List<Object> batch = new ArrayList<>(BATCH);
            boolean more = true;
            while (more && !closed) {
                try {
                    more = rows.hasNext();
                    if (more) {
                        batch.add(rows.next());
                    }
                }
                catch (RuntimeException | Error e) {
                    batch.add(new Failure(e));
                    more = false;
                }
                if (batch.size() == BATCH || !more) {
                    batches.put(batch);
                    batch = new ArrayList<>(BATCH);
                }
            }
            // the end: an empty batch
            if (!closed) {
                batches.put(List.of());
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
            if (ended) {
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
            if (current.isEmpty()) {
                ended = true;
                return false;
            }
        }
        if (current.get(at) instanceof Failure failure) {
            // thrown once, in its place; the reader stopped there
            ended = true;
            current = List.of();
            at = 0;
            if (failure.thrown() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw (Error) failure.thrown();
        }
        return true;
    }

    @Override
    public DatasetRow next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return (DatasetRow) current.get(at++);
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
