package dev.agentarena.junit.engine.descriptor;

import org.apiguardian.api.API;
import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.support.hierarchical.EngineExecutionContext;

import dev.agentarena.junit.engine.evaluation.EvalRuntime;
import dev.agentarena.junit.engine.evaluation.RunServices;

/**
 * The context nodes pass down: JUnit's listener (for report entries), the run's services, how tests are named and,
 * below an eval class, that eval ready to run.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ArenaExecutionContext implements EngineExecutionContext {

    private final EngineExecutionListener junit;
    private final RunServices run;
    private final DisplayNames displayNames;
    private final NodeMode nodes;
    private final RuntimeException configurationError;
    private final EvalRuntime eval;

    private ArenaExecutionContext(EngineExecutionListener junit, RunServices run, DisplayNames displayNames,
            NodeMode nodes, RuntimeException configurationError, EvalRuntime eval) {
        this.junit = junit;
        this.run = run;
        this.displayNames = displayNames;
        this.nodes = nodes;
        this.configurationError = configurationError;
        this.eval = eval;
    }

    static ArenaExecutionContext of(EngineExecutionListener junit, RunServices run, DisplayNames displayNames,
            NodeMode nodes) {
        return new ArenaExecutionContext(junit, run, displayNames, nodes, null, null);
    }

    /** The context of a run whose configuration could not be read: every eval fails with the error. */
    static ArenaExecutionContext failed(EngineExecutionListener junit, RuntimeException configurationError) {
        return new ArenaExecutionContext(junit, null, DisplayNames.SHORT, NodeMode.ALL, configurationError, null);
    }

    ArenaExecutionContext withEval(EvalRuntime newEval) {
        return new ArenaExecutionContext(junit, run, displayNames, nodes, configurationError, newEval);
    }

    /** JUnit's listener: report entries go to it. */
    EngineExecutionListener junit() {
        return junit;
    }

    /**
     * The run's services.
     *
     * @throws RuntimeException the configuration's error, when it could not be read
     */
    RunServices run() {
        if (configurationError != null) {
            throw configurationError;
        }
        return run;
    }

    boolean hasRun() {
        return run != null;
    }

    DisplayNames displayNames() {
        return displayNames;
    }

    /** Which tests the run registers ({@code arena.nodes}). */
    NodeMode nodes() {
        return nodes;
    }

    EvalRuntime eval() {
        return eval;
    }
}
