package dev.agentarena.junit.engine.datasets;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.stream.Stream;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.config.ConfigurationException;

/** Rows from the cases an {@code @EvalDataset} method returns, read as lazily as the method produces them. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DatasetRows {

    private DatasetRows() {
    }

    /**
     * The cases a method returned, as rows: a {@code null} or non-{@link EvalCase} element, or an exception while
     * iterating, becomes a failed row naming the method and the index (iteration stops after an exception); a repeated
     * id becomes a failed row under a fresh id; no case at all becomes one failed row named after the method.
     *
     * @param result what the method returned: a {@code Stream}, {@code Iterable}, {@code Iterator} or array of
     *        {@link EvalCase}
     * @param methodDescription the method as users know it, e.g. {@code SupportEvalTest.cases()}
     * @throws ConfigurationException when the result is {@code null} or of another type
     */
    public static DatasetStream fromMethodResult(Object result, String methodDescription) {
        Iterator<?> elements;
        AutoCloseable resource = null;
        if (result instanceof Stream) {
            Stream<?> stream = (Stream<?>) result;
            elements = stream.iterator();
            resource = stream;
        }
        else if (result instanceof Iterable) {
            elements = ((Iterable<?>) result).iterator();
        }
        else if (result instanceof Iterator) {
            elements = (Iterator<?>) result;
        }
        else if (result instanceof Object[]) {
            elements = Arrays.asList((Object[]) result).iterator();
        }
        else {
            throw new ConfigurationException(methodDescription
                    + " must return a Stream, Iterable, Iterator or array of EvalCase, but returned "
                    + (result == null ? "null" : "a " + result.getClass().getName()));
        }
        return new UniqueIds(new MethodRows(elements, resource, methodDescription), methodDescription);
    }

    private static final class MethodRows implements DatasetStream {

        private static final String METHOD_PREFIX = "dataset method ";

        private final Iterator<?> elements;
        private final AutoCloseable resource;
        private final String method;
        private int index;
        private boolean broken;
        private boolean empty;
        private RuntimeException pending;

        MethodRows(Iterator<?> elements, AutoCloseable resource, String method) {
            this.elements = elements;
            this.resource = resource;
            this.method = method;
        }

        @Override
        public boolean hasNext() {
            if (broken) {
                return false;
            }
            if (pending != null || empty) {
                return true;
            }
            try {
                boolean more = elements.hasNext();
                if (!more && index == 0) {
                    // No case at all: an eval over it would run zero tests and pass. Reported by next().
                    empty = true;
                    return true;
                }
                if (!more) {
                    close();
                }
                return more;
            }
            catch (RuntimeException e) {
                // Reported by next(), so the failure becomes a visible row instead of an aborted dataset.
                pending = e;
                return true;
            }
        }

        @Override
        public DatasetRow next() {
            if (broken) {
                throw new NoSuchElementException(method + " has no more cases");
            }
            int at = index++;
            if (empty) {
                broken = true;
                close();
                String name = method.startsWith(METHOD_PREFIX) ? method.substring(METHOD_PREFIX.length()) : method;
                return DatasetRow.failed(name, method + " returned no cases; a dataset needs at least one case",
                        null);
            }
            Object element;
            try {
                if (pending != null) {
                    throw pending;
                }
                element = elements.next();
            }
            catch (NoSuchElementException e) {
                throw e;
            }
            catch (RuntimeException e) {
                broken = true;
                return failed(at, "threw " + e + " while producing the case at index " + at
                        + "; no further cases were read");
            }
            if (element instanceof EvalCase) {
                return DatasetRow.of((EvalCase) element, null);
            }
            return failed(at, "returned " + (element == null ? "null" : "a " + element.getClass().getName())
                    + " at index " + at + " instead of an EvalCase");
        }

        private DatasetRow failed(int at, String problem) {
            return DatasetRow.failed("[" + at + "]", method + " " + problem, null);
        }

        @Override
        public void close() {
            if (resource != null) {
                try {
                    resource.close();
                }
                catch (Exception e) {
                    throw new IllegalStateException("closing the cases of " + method + " failed", e);
                }
            }
        }
    }
}
