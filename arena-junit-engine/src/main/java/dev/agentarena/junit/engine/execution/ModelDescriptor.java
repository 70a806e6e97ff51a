package dev.agentarena.junit.engine.execution;

import java.util.Optional;
import java.util.Set;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * One model of an eval. With a single dataset it runs the cases itself, registering them as they complete; with
 * several, each dataset is a {@link DatasetDescriptor} below it.
 */
public final class ModelDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext>,
        CaseContainer {

    /** Unique-id segment type. */
    public static final String SEGMENT = "model";

    private final String modelKey;
    private final EvalClassDescriptor eval;
    private final EvalDefinition definition;
    private final CaseSelection selection;
    private final ContainerTags tags;

    ModelDescriptor(UniqueId uniqueId, String modelKey, EvalClassDescriptor eval) {
        super(uniqueId, modelKey);
        this.modelKey = modelKey;
        this.eval = eval;
        this.definition = eval.definition();
        this.selection = new CaseSelection(eval.caseFilter());
        this.tags = holdsCases() ? new ContainerTags(this, definition.datasets().get(0), eval) : null;
    }

    String modelKey() {
        return modelKey;
    }

    /** Whether the cases hang below this node directly, with no dataset containers. */
    public boolean holdsCases() {
        return definition.datasets().size() == 1;
    }

    /** The case selection, when this node holds the cases. */
    public CaseSelection selection() {
        return selection;
    }

    /** Selects everything below. */
    public void selectAll() {
        if (holdsCases()) {
            selection.selectAll();
        }
        else {
            definition.datasets().forEach(spec -> dataset(spec.name()).selectAll());
        }
    }

    /** The dataset's container, created on first use; empty when no dataset has that name. */
    public Optional<DatasetDescriptor> findDataset(String name) {
        return definition.datasets().stream().anyMatch(spec -> spec.name().equals(name))
                ? Optional.of(dataset(name)) : Optional.empty();
    }

    /** The dataset's container, created on first use. */
    public DatasetDescriptor dataset(String name) {
        UniqueId id = getUniqueId().append(DatasetDescriptor.SEGMENT, name);
        Optional<? extends TestDescriptor> existing = findByUniqueId(id);
        if (existing.isPresent()) {
            return (DatasetDescriptor) existing.get();
        }
        DatasetSpec spec = definition.datasets().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no dataset named " + name));
        DatasetDescriptor dataset = new DatasetDescriptor(id, spec, modelKey, eval);
        addChild(dataset);
        return dataset;
    }

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
            new DatasetRun(context, this, definition.datasets().get(0), selection, modelKey).run(dynamicTestExecutor);
        }
        return context;
    }

    @Override
    public void release(TestDescriptor reportedCase) {
        // not removeChild: that would also cut the case's link to its parent, which listeners may still follow
        children.remove(reportedCase);
    }
}
