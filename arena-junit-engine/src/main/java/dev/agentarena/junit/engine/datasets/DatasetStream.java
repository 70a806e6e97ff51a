package dev.agentarena.junit.engine.datasets;

import java.util.Iterator;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.apiguardian.api.API;

/**
 * The rows of one dataset, read lazily: each {@link #next()} reads one more row, so a dataset of any size is never
 * held in memory. Close it when done; it also closes itself once exhausted. Not thread-safe: one consumer reads it.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface DatasetStream extends Iterator<DatasetRow>, AutoCloseable {

    /** Releases the file; idempotent. */
    @Override
    void close();

    /** The remaining rows as a sequential stream that closes this when closed. */
    default Stream<DatasetRow> stream() {
        Spliterator<DatasetRow> rows = Spliterators.spliteratorUnknownSize(this,
                Spliterator.ORDERED | Spliterator.NONNULL);
        return StreamSupport.stream(rows, false).onClose(this::close);
    }
}
