package dev.agentarena.junit.model;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A model call that failed for good: an infrastructure error, reported as an error of the case and never as a low
 * score. Messages never carry API keys.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public class ModelCallException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** With a message. */
    public ModelCallException(String message) {
        super(message);
    }

    /** With a message and a cause. */
    public ModelCallException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
