package dev.agentarena.junit.engine.lifecycle;

import org.junit.platform.commons.JUnitException;

/** An eval instance, or a callback of whatever creates it, failed; the message names the class and the cause. */
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
