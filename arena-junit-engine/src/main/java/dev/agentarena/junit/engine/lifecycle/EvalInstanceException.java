package dev.agentarena.junit.engine.lifecycle;

import org.apiguardian.api.API;
import org.junit.platform.commons.JUnitException;

/** An eval instance, or a callback of whatever creates it, failed; the message names the class and the cause. */
@API(status = API.Status.INTERNAL, since = "0.1")
public class EvalInstanceException extends JUnitException {

    private static final long serialVersionUID = 1L;

    /** With a message. */
    public EvalInstanceException(String message) {
        super(message);
    }

    /** With a message and its cause. */
    public EvalInstanceException(String message, Throwable cause) {
        super(message, cause);
    }
}
