package dev.agentarena.junit.engine.evaluation;

/**
 * A model call that was not started because {@code arena.budget.usd} is spent. The case becomes {@code not_run}: it
 * is reported as skipped, never as an error or a low score.
 */
final class BudgetExhaustedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    BudgetExhaustedException(String message) {
        super(message);
    }
}
