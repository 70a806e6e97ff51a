package dev.agentarena.junit.engine.evaluation;

import org.apiguardian.api.API;

/**
 * A call into user code (a task, a hook, a scorer) that did not finish within its limit. It is an error of the case,
 * never a low score; the message names the call, the limit and the key that sets it.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CallTimedOutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    CallTimedOutException(String message) {
        super(message);
    }
}
