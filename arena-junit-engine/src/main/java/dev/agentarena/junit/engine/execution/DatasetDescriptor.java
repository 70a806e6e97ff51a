package dev.agentarena.junit.engine.execution;

import java.util.Set;

import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/** One dataset of an eval with several, on one model: registers its cases as they complete. */
public final class DatasetDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext>,
        CaseContainer {

    /** Unique-id segment type. */
    public static final String SEGMENT = "dataset";

    private final DatasetSpec spec;
    private final String modelKey;
    private final CaseSelection selection;
    private final ContainerTags tags;

    DatasetDescriptor(UniqueId uniqueId, DatasetSpec spec, String modelKey, EvalClassDescriptor eval) {
        super(uniqueId, spec.name());
        this.spec = spec;
        this.modelKey = modelKey;
        this.selection = new CaseSelection(eval.caseFilter());
        this.tags = new ContainerTags(this, spec, eval);
    }

    DatasetSpec spec() {
        return spec;
    }

    /** The case selection. */
    public CaseSelection selection() {
        return selection;
    }

    /** Selects every case. */
    public void selectAll() {
        selection.selectAll();
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    @Override
    public String getLegacyReportingName() {
        return modelKey + "/" + spec.name();
    }

    /** With tag filters, the tags of one case they include, so that the launcher keeps this container; else none. */
    @Override
    public Set<TestTag> getTags() {
        return tags.get();
    }

    @Override
    public boolean mayRegisterTests() {
        return true;
    }

    @Override
    public ArenaExecutionContext execute(ArenaExecutionContext context, DynamicTestExecutor dynamicTestExecutor) {
        new DatasetRun(context, this, spec, selection, modelKey).run(dynamicTestExecutor);
        return context;
    }

    @Override
    public void release(TestDescriptor reportedCase) {
        // not removeChild: that would also cut the case's link to its parent, which listeners may still follow
        children.remove(reportedCase);
    }
}
