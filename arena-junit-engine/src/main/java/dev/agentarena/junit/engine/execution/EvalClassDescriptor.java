package dev.agentarena.junit.engine.execution;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * An eval class: a container of one {@link ModelDescriptor} per model, followed by its summary tests (leaderboard,
 * gates, baseline), which run after the models because children run in order.
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
    private final List<SummaryDescriptor> summaries = new ArrayList<>();

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
        // summaries need the models' results: keep them after every model, in the (ordered) children
        for (SummaryDescriptor summary : summaries) {
            removeChild(summary);
            addChild(summary);
        }
        return model;
    }

    /** Whether a unique-id segment type names a summary test below an eval class. */
    public static boolean isSummarySegment(String type) {
        return type.equals(LeaderboardDescriptor.SEGMENT) || type.equals(GateDescriptor.SEGMENT)
                || type.equals(BaselineDescriptor.SEGMENT);
    }

    /**
     * Adds the summary tests the configuration asks for, once: {@code leaderboard}, one {@code gate} per gate that
     * concerns this eval, {@code baseline}.
     */
    public void addSummaryNodes(ArenaEngineDescriptor engine) {
        if (!summaries.isEmpty()) {
            return;
        }
        SummaryPlan plan = engine.summaryPlan();
        if (plan.leaderboardTest) {
            summaries.add(new LeaderboardDescriptor(getUniqueId()));
        }
        if (plan.gatesError != null) {
            summaries.add(new GateDescriptor(getUniqueId(), plan.gatesError));
        }
        plan.gatesFor(definition.name()).forEach(rule -> summaries.add(new GateDescriptor(getUniqueId(), rule)));
        if (plan.baselineNode()) {
            summaries.add(new BaselineDescriptor(getUniqueId(), plan.baseline, plan.baselineError));
        }
        summaries.forEach(this::addChild);
    }

    /** Every selected model and dataset, for the cost estimate. */
    List<CostEstimate.Target> estimateTargets() {
        List<CostEstimate.Target> targets = new ArrayList<>();
        for (TestDescriptor child : getChildren()) {
            if (child instanceof ModelDescriptor) {
                ModelDescriptor model = (ModelDescriptor) child;
                if (model.holdsCases()) {
                    targets.add(new CostEstimate.Target(model.modelKey(), definition.datasets().get(0),
                            model.selection()));
                }
                for (TestDescriptor dataset : model.getChildren()) {
                    if (dataset instanceof DatasetDescriptor) {
                        DatasetDescriptor selected = (DatasetDescriptor) dataset;
                        targets.add(new CostEstimate.Target(model.modelKey(), selected.spec(), selected.selection()));
                    }
                }
            }
        }
        return targets;
    }

    /** Why the summaries would judge a partial run, if they would: every case of every model must have run. */
    Optional<String> partialSelection() {
        String partial = "only part of " + definition.name() + " was selected";
        if (!fullySelected) {
            return Optional.of(partial + " (by unique id, method or filter); summaries need every case of every "
                    + "model: run the whole class");
        }
        for (String modelKey : definition.models()) {
            Optional<? extends TestDescriptor> found = findByUniqueId(
                    getUniqueId().append(ModelDescriptor.SEGMENT, modelKey));
            if (found.isEmpty()) {
                return Optional.of(partial + ": model " + modelKey + " was filtered out");
            }
            ModelDescriptor model = (ModelDescriptor) found.get();
            if (model.holdsCases() && !model.selection().isAll()) {
                return Optional.of(partial + ": not every case of model " + modelKey + " was selected");
            }
            for (DatasetSpec spec : model.holdsCases() ? List.<DatasetSpec>of() : definition.datasets()) {
                Optional<? extends TestDescriptor> dataset = model.findByUniqueId(
                        model.getUniqueId().append(DatasetDescriptor.SEGMENT, spec.name()));
                if (dataset.isEmpty() || !((DatasetDescriptor) dataset.get()).selection().isAll()) {
                    return Optional.of(partial + ": not every case of dataset " + spec.name() + " on " + modelKey
                            + " was selected");
                }
            }
        }
        return Optional.empty();
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
