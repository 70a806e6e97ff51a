package dev.agentarena.junit.engine.execution;

import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.reporting.allure.AllureReporting;

/**
 * The engine's root: carries the configuration read at discovery (or why it could not be read), writes the run's
 * leaderboard at the end ({@link RunSummary}) and closes the run's services.
 */
public final class ArenaEngineDescriptor extends EngineDescriptor implements Node<ArenaExecutionContext> {

    private final ArenaConfiguration configuration;
    private final RuntimeException configurationError;
    private final CaseFilter caseFilter;
    private SummaryPlan summaryPlan;

    /** A root for a readable configuration, or for one that failed with {@code configurationError}. */
    public ArenaEngineDescriptor(UniqueId uniqueId, ArenaConfiguration configuration,
            RuntimeException configurationError) {
        this(uniqueId, configuration, configurationError, CaseFilter.NONE);
    }

    /** As above, with the launcher's filters to apply to cases. */
    public ArenaEngineDescriptor(UniqueId uniqueId, ArenaConfiguration configuration,
            RuntimeException configurationError, CaseFilter caseFilter) {
        super(uniqueId, "Agent Arena");
        this.configuration = configuration;
        this.configurationError = configurationError;
        this.caseFilter = caseFilter;
    }

    /** The configuration; without {@code arena.yaml} when that could not be read. */
    public ArenaConfiguration configuration() {
        return configuration;
    }

    /** The launcher's filters, applied to every eval's cases. */
    public CaseFilter caseFilter() {
        return caseFilter;
    }

    /** Which summary tests each eval class gets; read once, at discovery. */
    synchronized SummaryPlan summaryPlan() {
        if (summaryPlan == null) {
            summaryPlan = SummaryPlan.from(configuration);
        }
        return summaryPlan;
    }

    /** Creates the context of a run. */
    public ArenaExecutionContext createContext(org.junit.platform.engine.EngineExecutionListener listener) {
        if (configurationError != null) {
            return ArenaExecutionContext.failed(configurationError);
        }
        try {
            return ArenaExecutionContext.of(new RunServices(configuration, listener));
        }
        catch (RuntimeException e) {
            return ArenaExecutionContext.failed(e);
        }
    }

    @Override
    public void after(ArenaExecutionContext context) {
        if (context.hasRun()) {
            new RunSummary(context.run(), summaryPlan().runGates()).finish();
        }
    }

    @Override
    public void cleanUp(ArenaExecutionContext context) {
        if (context.hasRun()) {
            context.run().close();
        }
        AllureReporting.finish(this, configuration);
    }
}
