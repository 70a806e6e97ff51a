package dev.agentarena.junit.engine.traces;

/**
 * A span that cannot be read: its trace's id when it has a valid one (empty when not), its span id as shown, and what
 * is wrong, naming the span.
 */
final class BadSpan extends Exception {

    private static final long serialVersionUID = 1L;

    private final String traceId;
    private final String spanId;

    BadSpan(String traceId, String spanId, String message) {
        super(message, null, false, false);
        this.traceId = traceId;
        this.spanId = spanId;
    }

    String traceId() {
        return traceId;
    }

    String spanId() {
        return spanId;
    }
}
