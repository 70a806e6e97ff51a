package dev.agentarena.junit.engine.execution;

import org.junit.platform.commons.JUnitException;

/** An eval class that is declared wrongly; the message says what to change. */
public class EvalDefinitionException extends JUnitException {

    private static final long serialVersionUID = 1L;

    /** With a message. */
    public EvalDefinitionException(String message) {
        super(message);
    }
}
