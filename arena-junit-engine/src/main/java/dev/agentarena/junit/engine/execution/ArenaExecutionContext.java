package dev.agentarena.junit.engine.execution;

import org.junit.platform.engine.support.hierarchical.EngineExecutionContext;

/**
 * The context nodes pass down: the run's services and, below an eval class, that eval ready to run.
 */
public final class ArenaExecutionContext implements EngineExecutionContext {

    private final RunServices run;
    private final RuntimeException configurationError;
    private final EvalRuntime eval;

    private ArenaExecutionContext(RunServices run, RuntimeException configurationError, EvalRuntime eval) {
        this.run = run;
        this.configurationError = configurationError;
        this.eval = eval;
    }

    /** The context of a run. */
    public static ArenaExecutionContext of(RunServices run) {
        return new ArenaExecutionContext(run, null, null);
    }

    /** The context of a run whose configuration could not be read: every eval fails with the error. */
    public static ArenaExecutionContext failed(RuntimeException configurationError) {
        return new ArenaExecutionContext(null, configurationError, null);
    }

    ArenaExecutionContext withEval(EvalRuntime newEval) {
        return new ArenaExecutionContext(run, configurationError, newEval);
    }

    RunServices run() {
        if (configurationError != null) {
            throw configurationError;
        }
        return run;
    }

    boolean hasRun() {
        return run != null;
    }

    EvalRuntime eval() {
        return eval;
    }
}
