package dev.agentarena.junit.engine.definition;

import org.apiguardian.api.API;
import org.junit.platform.commons.JUnitException;

/** An eval class that is declared wrongly; the message says what to change. */
@API(status = API.Status.INTERNAL, since = "0.1")
public class EvalDefinitionException extends JUnitException {

    private static final long serialVersionUID = 1L;

    /** With a message. */
    public EvalDefinitionException(String message) {
        super(message);
    }
}
