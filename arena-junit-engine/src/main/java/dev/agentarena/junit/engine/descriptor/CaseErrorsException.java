package dev.agentarena.junit.engine.descriptor;

/**
 * A summary test's outcome when cases it stands for ended in errors (of the model call, the task, a hook or the
 * scorer): reported as an error, never as a failure, so that infrastructure errors stay distinct from low scores
 * (Surefire's {@code <error>}, Allure's broken).
 */
final class CaseErrorsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    CaseErrorsException(String message) {
        super(message, null, false, false);
    }
}
