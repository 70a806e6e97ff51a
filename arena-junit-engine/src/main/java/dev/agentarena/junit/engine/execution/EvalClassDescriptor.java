package dev.agentarena.junit.engine.execution;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * An eval class: a container of one {@link ModelDescriptor} per model.
 *
 * <p>It is the only node with a {@link ClassSource}, and it is displayed under the class's simple name: Surefire then
 * names every test's class after it, and uses each test's legacy reporting name as the test name.
 */
public final class EvalClassDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

    /** Unique-id segment type. */
    public static final String SEGMENT = "class";

    private final EvalDefinition definition;
    private boolean fullySelected;
    private final Set<String> selectedScorers = new LinkedHashSet<>();

    /** A descriptor with no models yet; selection adds them. */
    public EvalClassDescriptor(UniqueId uniqueId, EvalDefinition definition) {
        super(uniqueId, definition.testClass().getSimpleName(), ClassSource.from(definition.testClass()));
        this.definition = definition;
    }

    /** What the class declares. */
    public EvalDefinition definition() {
        return definition;
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    @Override
    public String getLegacyReportingName() {
        return definition.testClass().getName();
    }

    /** Selects every model, dataset, case and scorer. */
    public void selectAll() {
        fullySelected = true;
        selectEveryCase();
    }

    /** Selects one scorer for every case of every model, as when an IDE runs a {@code @Scorer} method. */
    public void selectScorer(String scorer) {
        selectedScorers.add(scorer);
        selectEveryCase();
    }

    private void selectEveryCase() {
        for (String model : definition.models()) {
            model(model).selectAll();
        }
    }

    /** The model's container, created on first use. */
    public ModelDescriptor model(String modelKey) {
        UniqueId id = getUniqueId().append(ModelDescriptor.SEGMENT, modelKey);
        Optional<? extends TestDescriptor> existing = findByUniqueId(id);
        if (existing.isPresent()) {
            return (ModelDescriptor) existing.get();
        }
        ModelDescriptor model = new ModelDescriptor(id, modelKey, definition);
        addChild(model);
        return model;
    }

    boolean includesScorer(String scorer) {
        return fullySelected || selectedScorers.isEmpty() || selectedScorers.contains(scorer);
    }

    @Override
    public ArenaExecutionContext before(ArenaExecutionContext context) {
        if (!definition.problems().isEmpty()) {
            throw new EvalDefinitionException(definition.testClass().getName() + " cannot run: "
                    + String.join("; ", definition.problems()));
        }
        RunServices run = context.run();
        EvalRuntime eval = EvalRuntime.create(definition, run.scorersFor(definition.testClass()), this::includesScorer);
        return context.withEval(eval);
    }
}
