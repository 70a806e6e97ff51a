package dev.agentarena.junit.engine.execution;

import org.apiguardian.api.API;
import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.support.hierarchical.EngineExecutionContext;

import dev.agentarena.junit.engine.config.DisplayNames;
import dev.agentarena.junit.engine.config.LowScores;
import dev.agentarena.junit.engine.config.NodeMode;
import dev.agentarena.junit.engine.evaluation.EvalRuntime;

/**
 * The context nodes pass down: JUnit's listener (for report entries), the run's services, how tests are named, what
 * a low score does to its test and, below an eval class, that eval ready to run.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ArenaExecutionContext implements EngineExecutionContext {

    private final EngineExecutionListener junit;
    private final RunServices run;
    private final DisplayNames displayNames;
    private final LowScores lowScores;
    private final NodeMode nodes;
    private final RuntimeException configurationError;
    private final EvalRuntime eval;
    private final RuntimeException evalFailure;

    private ArenaExecutionContext(EngineExecutionListener junit, RunServices run, DisplayNames displayNames,
            LowScores lowScores, NodeMode nodes, RuntimeException configurationError, EvalRuntime eval,
            RuntimeException evalFailure) {
        this.junit = junit;
        this.run = run;
        this.displayNames = displayNames;
        this.lowScores = lowScores;
        this.nodes = nodes;
        this.configurationError = configurationError;
        this.eval = eval;
        this.evalFailure = evalFailure;
    }

    public static ArenaExecutionContext of(EngineExecutionListener junit, RunServices run, DisplayNames displayNames,
            LowScores lowScores, NodeMode nodes) {
        return new ArenaExecutionContext(junit, run, displayNames, lowScores, nodes, null, null, null);
    }

    /** The context of a run whose configuration could not be read: every eval fails with the error. */
    public static ArenaExecutionContext failed(EngineExecutionListener junit, RuntimeException configurationError) {
        return new ArenaExecutionContext(junit, null, DisplayNames.SHORT, LowScores.FAIL, NodeMode.ALL,
                configurationError, null, null);
    }

    public ArenaExecutionContext withEval(EvalRuntime newEval) {
        return new ArenaExecutionContext(junit, run, displayNames, lowScores, nodes, configurationError, newEval,
                null);
    }

    /** Below an eval class that cannot run: why. */
    public ArenaExecutionContext withEvalFailure(RuntimeException failure) {
        return new ArenaExecutionContext(junit, run, displayNames, lowScores, nodes, configurationError, null,
                failure);
    }

    /** JUnit's listener: report entries go to it. */
    public EngineExecutionListener junit() {
        return junit;
    }

    /**
     * The run's services.
     *
     * @throws RuntimeException the configuration's error, when it could not be read
     */
    public RunServices run() {
        if (configurationError != null) {
            throw configurationError;
        }
        return run;
    }

    public boolean hasRun() {
        return run != null;
    }

    public DisplayNames displayNames() {
        return displayNames;
    }

    /** Which tests the run registers ({@code arena.nodes}). */
    public NodeMode nodes() {
        return nodes;
    }

    /** What a low score does to its test ({@code arena.low-scores}). */
    public LowScores lowScores() {
        return lowScores;
    }

    public EvalRuntime eval() {
        return eval;
    }

    /** Why the eval class cannot run, or {@code null} when it runs. */
    public RuntimeException evalFailure() {
        return evalFailure;
    }
}
