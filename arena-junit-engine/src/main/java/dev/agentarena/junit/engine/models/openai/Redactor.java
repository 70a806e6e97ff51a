package dev.agentarena.junit.engine.models.openai;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Keeps secrets out of messages: every text the connector puts in an exception passes through here, including
 * echoes of response bodies (a proxy may reflect the request headers back).
 */
final class Redactor {

    static final String MASK = "[REDACTED]";
    private static final int MAX_EXCERPT = 300;

    private final List<String> secrets = new ArrayList<>();

    Redactor(Collection<String> values) {
        for (String value : values) {
            // very short values would mask ordinary words and protect nothing
            if (value != null && value.length() >= 4) {
                secrets.add(value);
            }
        }
        // longest first, so a secret that contains another is masked whole
        secrets.sort(Comparator.comparingInt(String::length).reversed());
    }

    String redact(String text) {
        if (text == null) {
            return "";
        }
        String result = text;
        for (String secret : secrets) {
            result = result.replace(secret, MASK);
        }
        return result;
    }

    /** A redacted, single-line excerpt of a response body. */
    String excerpt(String body) {
        String flat = redact(body).replaceAll("\\s+", " ").strip();
        return flat.length() <= MAX_EXCERPT ? flat : flat.substring(0, MAX_EXCERPT - 1) + "…";
    }

    /** The throwable if no message in its chain holds a secret, else {@code null}: such a cause is dropped. */
    Throwable safeCause(Throwable throwable) {
        for (Throwable t = throwable; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage()) + t;
            if (!redact(message).equals(message)) {
                return null;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return throwable;
    }
}
