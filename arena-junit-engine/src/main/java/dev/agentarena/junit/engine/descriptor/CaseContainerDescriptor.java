package dev.agentarena.junit.engine.descriptor;

import java.util.Set;

import org.apiguardian.api.API;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

import dev.agentarena.junit.engine.definition.DatasetSpec;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;

/**
 * A container that may hold one dataset's cases on one model, registering them as they complete: a model of a class
 * with one dataset, or a dataset of a class with several. It knows which of the cases are selected and, for the
 * launcher's tag filters, the tags of one case they include.
 *
 * <p>It lets go of each case once the case is reported: the launcher's test plan has its own record of it, and a run
 * of a million cases would otherwise keep every case node and its scorer nodes reachable until the run ends.
 *
 * <p>Public for discovery, which selects the cases a unique id names.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public abstract class CaseContainerDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

    private final String modelKey;
    private final DatasetSpec cases;
    private final CaseSelection selection;
    private final ContainerTags tags;

    /**
     * @param cases the dataset whose cases this container holds, or {@code null} when it holds none
     */
    CaseContainerDescriptor(UniqueId uniqueId, String displayName, String modelKey, DatasetSpec cases,
            EvalClassDescriptor eval) {
        super(uniqueId, displayName);
        this.modelKey = modelKey;
        this.cases = cases;
        this.selection = new CaseSelection(eval.caseFilter());
        this.tags = cases == null ? null : new ContainerTags(this, cases, eval);
    }

    String modelKey() {
        return modelKey;
    }

    /** Whether the cases hang below this node directly. */
    public boolean holdsCases() {
        return cases != null;
    }

    /** The dataset whose cases this container holds. */
    DatasetSpec cases() {
        return cases;
    }

    /** Which cases, and which of their scorers, run. */
    public CaseSelection selection() {
        return selection;
    }

    /** Selects everything below. */
    public abstract void selectAll();

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    /** With tag filters, the tags of one case they include, so that the launcher keeps this container; else none. */
    @Override
    public Set<TestTag> getTags() {
        return tags == null ? Set.of() : tags.get();
    }

    @Override
    public boolean mayRegisterTests() {
        return holdsCases();
    }

    @Override
    public ArenaExecutionContext execute(ArenaExecutionContext context, DynamicTestExecutor dynamicTestExecutor) {
        if (holdsCases()) {
            new DatasetRun(context, this).run(dynamicTestExecutor);
        }
        return context;
    }

    /** Drops a reported case from the children, keeping its parent link so listeners can still walk up from it. */
    void release(TestDescriptor reportedCase) {
        // not removeChild: that would also cut the case's link to its parent, which listeners may still follow
        children.remove(reportedCase);
    }
}
