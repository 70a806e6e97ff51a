package dev.agentarena.junit.engine.execution;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.stream.Stream;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.datasets.DatasetRow;

/** The rows of a dataset method's result, read lazily; a null element or a repeated id becomes a failed row. */
final class MethodDatasetRows implements Iterator<DatasetRow>, AutoCloseable {

    private final Iterator<?> elements;
    private final String method;
    private final AutoCloseable onClose;
    private final Map<String, Integer> seen = new HashMap<>();
    private int index;

    private MethodDatasetRows(Iterator<?> elements, String method, AutoCloseable onClose) {
        this.elements = elements;
        this.method = method;
        this.onClose = onClose;
    }

    static MethodDatasetRows of(Object result, String method) {
        if (result instanceof Stream) {
            Stream<?> stream = (Stream<?>) result;
            return new MethodDatasetRows(stream.iterator(), method, stream);
        }
        if (result instanceof Iterable) {
            return new MethodDatasetRows(((Iterable<?>) result).iterator(), method, null);
        }
        if (result instanceof Iterator) {
            return new MethodDatasetRows((Iterator<?>) result, method, null);
        }
        if (result instanceof Object[]) {
            return new MethodDatasetRows(Arrays.asList((Object[]) result).iterator(), method, null);
        }
        throw new IllegalArgumentException(method + " must return a Stream, Iterable, Iterator or array of EvalCase, "
                + "but returned " + (result == null ? "null" : result.getClass().getName()));
    }

    @Override
    public boolean hasNext() {
        return elements.hasNext();
    }

    @Override
    public DatasetRow next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Object element = elements.next();
        int position = index++;
        if (!(element instanceof EvalCase)) {
            return DatasetRow.failed(method + "#" + position, method + " returned "
                    + (element == null ? "null" : "a " + element.getClass().getName()) + " at index " + position
                    + " instead of an EvalCase", null);
        }
        EvalCase evalCase = (EvalCase) element;
        Integer first = seen.putIfAbsent(evalCase.id(), position);
        if (first != null) {
            return DatasetRow.failed(evalCase.id() + "#" + (position + 1), method + " returned the id '"
                    + evalCase.id() + "' twice, at index " + first + " and " + position + "; case ids must be unique",
                    null);
        }
        return DatasetRow.of(evalCase, null);
    }

    @Override
    public void close() throws Exception {
        if (onClose != null) {
            onClose.close();
        }
    }
}
