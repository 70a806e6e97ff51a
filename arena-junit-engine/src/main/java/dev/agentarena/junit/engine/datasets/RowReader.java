package dev.agentarena.junit.engine.datasets;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;

/**
 * Reads one row at a time from a file. Subclasses return {@code null} at the end, and call {@link #stop()} after an
 * error they cannot read past.
 *
 * <p>A file that yields no row at all yields one failed row instead, named after the file ({@link #emptyRow()}): an
 * eval whose dataset is empty would otherwise run zero tests and pass. Bytes that are not UTF-8 end the file with a
 * failed row at their line ({@link InvalidUtf8Exception}).
 */
abstract class RowReader implements DatasetStream {

    final DatasetSource source;
    /** The checks of this file's rows, with what they work out once per file. */
    private final CaseFields fields;
    private final Closeable resource;
    private DatasetRow next;
    private boolean finished;
    private boolean closed;
    private long rows;
    /** Whether rows are read as plain fields rather than cases ({@link DatasetFiles#openPlain}). */
    private boolean plain;

    RowReader(DatasetSource source, Closeable resource) {
        this.source = source;
        this.fields = new CaseFields(source);
        this.resource = resource;
    }

    /** Reads the rows as plain fields from now on: a file of another shape than a dataset's. */
    final RowReader plain() {
        plain = true;
        return this;
    }

    /** Whether rows are read as plain fields: the dataset's own checks (its columns) do not apply. */
    final boolean isPlain() {
        return plain;
    }

    /**
     * A row from a JSON-like node: a case, or for a plain reader, its fields (an object; anything else is a bad row).
     */
    final DatasetRow row(JsonNode node, int line, List<String> parseProblems) {
        if (!plain) {
            return fields.row(node, line, parseProblems);
        }
        if (!parseProblems.isEmpty()) {
            return failed(line, String.join("; ", parseProblems));
        }
        if (node == null || !node.isObject()) {
            return failed(line, "expected an object, found " + (node == null ? "nothing" : CaseFields.kind(node)));
        }
        return DatasetRow.plain(node, source.at(line));
    }

    /**
     * A case from the fields of a row read without a problem, by their place in {@link CaseFields#KNOWN}
     * ({@link KnownFields}); not for a plain reader.
     */
    final DatasetRow knownRow(JsonNode[] known, int line) {
        return fields.row(known, line);
    }

    /** A row from a CSV record's cells: a case, or for a plain reader, its cells as text fields. */
    final DatasetRow row(Map<String, String> cells, int line) {
        if (!plain) {
            return CsvCells.toRow(cells, fields, line);
        }
        ObjectNode node = Json.MAPPER.createObjectNode();
        cells.forEach(node::put);
        return DatasetRow.plain(node, source.at(line));
    }

    /** The next row, or {@code null} at the end of the file. */
    abstract DatasetRow readNext() throws IOException;

    /** The line the reader has reached, for errors that stop it. */
    abstract int currentLine();

    /**
     * Why the file held no row, once it is known to hold none: "the file is empty", "the file has a header row and
     * no records", ...
     */
    String whyEmpty() {
        return "the file is empty";
    }

    /** No row after the one being returned. */
    final void stop() {
        finished = true;
    }

    /** A bad row at a line, with an id derived from file and line. */
    final DatasetRow failed(int line, String problem) {
        DatasetLocation location = source.at(line);
        return DatasetRow.failed(fields.derivedId(line), location + ": " + problem, location);
    }

    @Override
    public final boolean hasNext() {
        if (next == null && !finished) {
            try {
                next = readNext();
            }
            catch (IOException e) {
                stop();
                next = unreadable(e);
            }
            if (next == null) {
                finished = true;
                if (rows == 0 && !plain) {
                    next = emptyRow();
                }
            }
            if (next != null) {
                rows++;
            }
        }
        if (next == null) {
            close();
        }
        return next != null;
    }

    /** The row that stands for a file without rows: a failed case named after the file, at line 1. */
    private DatasetRow emptyRow() {
        DatasetLocation location = source.at(1);
        return DatasetRow.failed(source.fileName(), location + ": no cases: " + whyEmpty()
                + "; a dataset needs at least one case", location);
    }

    /** The failed row for an error that ends the file: bad UTF-8 at its line, any other at the current one. */
    final DatasetRow unreadable(IOException e) {
        InvalidUtf8Exception invalid = InvalidUtf8Exception.causing(e);
        if (invalid != null) {
            return failed(invalid.line(), invalid.getMessage() + "; the rest of the file was not read");
        }
        return failed(currentLine(), "cannot read the rest of the file: " + e.getMessage());
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
