package dev.agentarena.junit.engine.secrets;

/**
 * Stands in for an exception whose message held a secret: the same stack trace and the masked message, printed under
 * the original exception's type name, so a report reads as it would have without the secret.
 */
final class RedactedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String originalType;

    RedactedException(String originalType, String message) {
        super(message);
        this.originalType = originalType;
    }

    /** The class name of the exception this one stands in for. */
    String originalType() {
        return originalType;
    }

    @Override
    public String toString() {
        String message = getLocalizedMessage();
        return message == null ? originalType : originalType + ": " + message;
    }
}
