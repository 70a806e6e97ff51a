package dev.agentarena.junit.engine.datasets;

import java.io.Closeable;
import java.io.IOException;
import java.util.NoSuchElementException;

/**
 * Reads one row at a time from a file. Subclasses return {@code null} at the end, and call {@link #stop()} after an
 * error they cannot read past.
 */
abstract class RowReader implements DatasetStream {

    final DatasetSource source;
    private final Closeable resource;
    private DatasetRow next;
    private boolean finished;
    private boolean closed;

    RowReader(DatasetSource source, Closeable resource) {
        this.source = source;
        this.resource = resource;
    }

    /** The next row, or {@code null} at the end of the file. */
    abstract DatasetRow readNext() throws IOException;

    /** The line the reader has reached, for errors that stop it. */
    abstract int currentLine();

    /** No row after the one being returned. */
    final void stop() {
        finished = true;
    }

    /** A bad row at a line, with an id derived from file and line. */
    final DatasetRow failed(int line, String problem) {
        DatasetLocation location = source.at(line);
        return DatasetRow.failed(source.fileName() + ":" + line, location + ": " + problem, location);
    }

    @Override
    public final boolean hasNext() {
        if (next == null && !finished) {
            try {
                next = readNext();
            }
            catch (IOException e) {
                stop();
                next = failed(currentLine(), "cannot read the rest of the file: " + e.getMessage());
            }
            if (next == null) {
                finished = true;
            }
        }
        if (next == null) {
            close();
        }
        return next != null;
    }

    @Override
    public final DatasetRow next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more rows in " + source.displayName());
        }
        DatasetRow row = next;
        next = null;
        return row;
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        finished = true;
        try {
            resource.close();
        }
        catch (IOException e) {
            // Nothing was written, so a failing close loses nothing.
        }
    }
}
