package dev.agentarena.junit.engine.results;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.apiguardian.api.API;

/**
 * An error as reports show it when its messages had to be rewritten (a secret masked, a very long message cut): the
 * same stack trace, causes and suppressed errors, printed under the original type's name, so a report reads as it
 * would have with the original.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ReportedError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String originalType;

    private ReportedError(String originalType, String message) {
        super(message);
        this.originalType = originalType;
    }

    /**
     * A copy of the error's whole chain with every message rewritten.
     *
     * @param message rewrites one message; may receive {@code null}
     */
    public static Throwable rewrite(Throwable error, UnaryOperator<String> message) {
        return error == null ? null : copy(error, message, new IdentityHashMap<>());
    }

    private static Throwable copy(Throwable error, UnaryOperator<String> message, Map<Throwable, Throwable> copies) {
        Throwable done = copies.get(error);
        if (done != null) {
            return done;
        }
        String type = error instanceof ReportedError ? ((ReportedError) error).originalType
                : error.getClass().getName();
        ReportedError copy = new ReportedError(type, message.apply(error.getMessage()));
        copies.put(error, copy);
        copy.setStackTrace(error.getStackTrace());
        if (error.getCause() != null && error.getCause() != error) {
            copy.initCause(copy(error.getCause(), message, copies));
        }
        for (Throwable suppressed : error.getSuppressed()) {
            copy.addSuppressed(copy(suppressed, message, copies));
        }
        return copy;
    }

    /** The class name of the error this one stands in for. */
    public String originalType() {
        return originalType;
    }

    @Override
    public String toString() {
        String message = getLocalizedMessage();
        return message == null ? originalType : originalType + ": " + message;
    }
}
