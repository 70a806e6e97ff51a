package dev.agentarena.junit.engine.descriptor;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.hierarchical.Node;

import dev.agentarena.junit.Arena;
import dev.agentarena.junit.HumanLabels;
import dev.agentarena.junit.redteam.RedTeam;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.datasets.DatasetFiles;
import dev.agentarena.junit.engine.definition.DatasetSpec;
import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.definition.EvalDefinitionException;
import dev.agentarena.junit.engine.evaluation.CostEstimate;
import dev.agentarena.junit.engine.evaluation.EvalRuntime;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.execution.RunServices;
import dev.agentarena.junit.engine.evaluation.Shard;
import dev.agentarena.junit.engine.integration.EvalInstanceStrategies;
import dev.agentarena.junit.engine.lifecycle.EvalInstances;
import dev.agentarena.junit.engine.reporting.leaderboard.Compared;

/**
 * An eval class: a container of one {@link ModelDescriptor} per model, followed by its summary tests (leaderboard,
 * gates, baseline), which run after the models because children run in order.
 *
 * <p>A class that cannot run (its declaration is wrong, a dataset file is found nowhere, a scorer is unknown, the
 * configuration cannot be read) runs no model: it gets one {@link CannotRunDescriptor} test that fails with why and
 * reports the eval as errored, and its summary tests still judge it.
 *
 * <p>It is the only node with a {@link ClassSource}, and it is displayed under the class's simple name: Surefire then
 * names every test's class after it, and uses each test's legacy reporting name as the test name.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EvalClassDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

    private final EvalDefinition definition;
    private final CaseFilter caseFilter;
    private final Path projectRoot;
    private boolean fullySelected;
    private final Set<String> selectedScorers = new LinkedHashSet<>();
    private final List<String> unreadableAtDiscovery = new ArrayList<>();
    private EvalInstances discoveryInstances;
    private Object discoveryInstance;
    private final List<SummaryDescriptor> summaries = new ArrayList<>();
    private volatile boolean cannotRun;

    /**
     * A descriptor with no models yet, whose cases run only when the launcher's filters include them.
     *
     * @param projectRoot where relative dataset files are found, should the filters need them read at discovery
     */
    EvalClassDescriptor(UniqueId uniqueId, EvalDefinition definition, CaseFilter caseFilter, Path projectRoot) {
        super(uniqueId, definition.testClass().getSimpleName(), ClassSource.from(definition.testClass()));
        this.definition = definition;
        this.caseFilter = caseFilter;
        this.projectRoot = projectRoot;
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

    /** Whether the declaration is wrong: then the class has no model containers, only its failure. */
    public boolean declaredWrongly() {
        return !definition.problems().isEmpty();
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

    /**
     * Selects the datasets an {@code @EvalDataset} method declares, on every model (as when an IDE runs the method);
     * the whole class when it has a single dataset.
     */
    public void selectDatasetsOf(Method method) {
        if (definition.datasets().size() <= 1 || declaredWrongly()) {
            selectAll();
            return;
        }
        for (String modelKey : definition.models()) {
            ModelDescriptor model = model(modelKey);
            definition.datasets().stream().filter(spec -> method.equals(spec.method()))
                    .forEach(spec -> model.dataset(spec.name()).selectAll());
        }
    }

    /**
     * The summary test of this class whose unique id ends in a segment of this type ({@code leaderboard},
     * {@code gate}, {@code baseline}), if the configuration gives the class one.
     */
    public Optional<TestDescriptor> summaryTest(String segmentType) {
        return getChildren().stream().filter(child -> child.getUniqueId().getLastSegment().getType()
                .equals(segmentType)).findFirst().map(TestDescriptor.class::cast);
    }

    /** The container of one of the class's models, created on first use; empty when the class does not run it. */
    public Optional<ModelDescriptor> declaredModel(String modelKey) {
        return definition.models().contains(modelKey) ? Optional.of(model(modelKey)) : Optional.empty();
    }

    private void selectEveryCase() {
        if (declaredWrongly()) {
            return;
        }
        for (String model : definition.models()) {
            model(model).selectAll();
        }
    }

    /** The model's container, created on first use. */
    ModelDescriptor model(String modelKey) {
        UniqueId id = ArenaUniqueIds.model(getUniqueId(), modelKey);
        Optional<? extends TestDescriptor> existing = findByUniqueId(id);
        if (existing.isPresent()) {
            return (ModelDescriptor) existing.get();
        }
        ModelDescriptor model = new ModelDescriptor(id, modelKey, this);
        addChild(model);
        // summaries need the models' results: keep them after every model, in the (ordered) children
        for (SummaryDescriptor summary : summaries) {
            removeChild(summary);
            addChild(summary);
        }
        return model;
    }

    /**
     * Adds the summary tests the configuration asks for, once: {@code leaderboard}, one {@code gate} per gate that
     * concerns this eval, {@code baseline}.
     */
    void addSummaryNodes(ArenaEngineDescriptor engine) {
        if (!summaries.isEmpty()) {
            return;
        }
        SummaryPlan plan = engine.summaryPlan();
        if (AnnotationSupport.isAnnotated(definition.testClass(), Arena.class)) {
            // before the leaderboard, which shows the arena beside the per-case scores
            summaries.add(new ArenaDescriptor(getUniqueId()));
        }
        if (plan.leaderboardTest) {
            summaries.add(new LeaderboardDescriptor(getUniqueId()));
        }
        if (plan.gatesError != null) {
            summaries.add(new GateDescriptor(getUniqueId(), plan.gatesError));
        }
        plan.gatesFor(definition.name(), AnnotationSupport.isAnnotated(definition.testClass(), RedTeam.class))
                .forEach(rule -> summaries.add(new GateDescriptor(getUniqueId(), rule)));
        if (plan.baselineNode()) {
            summaries.add(new BaselineDescriptor(getUniqueId(), plan.baseline, plan.baselineError));
        }
        if (plan.labelsFile || AnnotationSupport.isAnnotated(definition.testClass(), HumanLabels.class)) {
            summaries.add(new AgreementDescriptor(getUniqueId()));
        }
        summaries.forEach(this::addChild);
    }

    /** Every selected model and dataset, for the cost estimate. */
    List<CostEstimate.Target> estimateTargets() {
        List<CostEstimate.Target> targets = new ArrayList<>();
        for (TestDescriptor child : getChildren()) {
            if (child instanceof ModelDescriptor model) {
                if (model.holdsCases()) {
                    targets.add(target(model));
                }
                for (TestDescriptor dataset : model.getChildren()) {
                    if (dataset instanceof DatasetDescriptor) {
                        targets.add(target((DatasetDescriptor) dataset));
                    }
                }
            }
        }
        return targets;
    }

    private static CostEstimate.Target target(CaseContainerDescriptor container) {
        return new CostEstimate.Target(container.modelKey(), container.cases(), container.selection()::includesCase);
    }

    /**
     * Why the summaries would judge a partial run, if they would: every case of every model must have run, and not
     * only one shard of them ({@code arena.shard}; the merge judges the whole).
     */
    Optional<String> partialSelection() {
        Optional<Shard> shard = getParent().filter(ArenaEngineDescriptor.class::isInstance)
                .flatMap(engine -> ((ArenaEngineDescriptor) engine).shard()).filter(Shard::partial);
        if (shard.isPresent()) {
            return Optional.of("only shard " + shard.get() + " of " + definition.name() + " runs here ("
                    + Constants.SHARD + "); its leaderboard, gates and baseline are judged once the shards are "
                    + "merged (MergeShards, see docs/guides/large-runs.md)");
        }
        return selectionGap();
    }

    /**
     * Why the summaries would judge one shard only, when every case of the shard ran with every model (the only
     * partial run an arena can compare); empty otherwise.
     */
    Optional<String> shardOnly() {
        Optional<String> partial = partialSelection();
        return partial.isPresent() && selectionGap().isEmpty() ? partial : Optional.empty();
    }

    /** Why not every case of every model was selected (by unique id, method or filter), if not. */
    Optional<String> selectionGap() {
        String partial = "only part of " + definition.name() + " was selected";
        if (!fullySelected) {
            return Optional.of(partial + " (by unique id, method or filter); summaries need every case of every "
                    + "model: run the whole class");
        }
        if (cannotRun || declaredWrongly()) {
            // no model runs, on purpose: the summaries judge the eval's errors, and the run is a full one
            return Optional.empty();
        }
        for (String modelKey : definition.models()) {
            Optional<? extends TestDescriptor> found = findByUniqueId(ArenaUniqueIds.model(getUniqueId(), modelKey));
            if (found.isEmpty()) {
                return Optional.of(partial + ": model " + modelKey + " was filtered out");
            }
            ModelDescriptor model = (ModelDescriptor) found.get();
            if (model.holdsCases() && !model.selection().isAll()) {
                return Optional.of(partial + ": not every case of model " + modelKey + " was selected");
            }
            if (model.holdsCases() && model.selection().isFilteredOut()) {
                return Optional.of(partial + ": the launcher's tag filters left cases of " + modelKey + " out");
            }
            for (DatasetSpec spec : model.holdsCases() ? List.<DatasetSpec>of() : definition.datasets()) {
                Optional<? extends TestDescriptor> dataset = model.findByUniqueId(
                        ArenaUniqueIds.dataset(model.getUniqueId(), spec.name()));
                if (dataset.isEmpty() || !((DatasetDescriptor) dataset.get()).selection().isAll()
                        || ((DatasetDescriptor) dataset.get()).selection().isFilteredOut()) {
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

    CaseFilter caseFilter() {
        return caseFilter;
    }

    Path projectRoot() {
        return projectRoot;
    }

    /** An instance for a non-static dataset method read at discovery (only when filtering by tag). */
    synchronized Object instanceForDiscovery() {
        if (discoveryInstance == null) {
            if (discoveryInstances == null) {
                discoveryInstances = EvalInstanceStrategies.open(definition.testClass(), key -> getParent()
                        .filter(ArenaEngineDescriptor.class::isInstance)
                        .flatMap(engine -> ((ArenaEngineDescriptor) engine).configuration().get(key)));
            }
            discoveryInstance = discoveryInstances.createEvalInstance();
        }
        return discoveryInstance;
    }

    /** A dataset that the tag filters needed at discovery could not be read: this class reports it when it runs. */
    synchronized void datasetUnreadable(DatasetSpec spec, RuntimeException error) {
        unreadableAtDiscovery.add(spec.describe() + ": " + error.getMessage());
    }

    /**
     * Kept, though its containers were filtered away, when a dataset could not be read to filter its cases; and when
     * its declaration is wrong, which may leave it no model container at all (an empty {@code arena.models}): it must
     * still run, to fail.
     */
    @Override
    public synchronized boolean mayRegisterTests() {
        // a wrongly declared class has no model container, and must still run to fail
        return !unreadableAtDiscovery.isEmpty() || declaredWrongly();
    }

    /**
     * Gets the eval ready before any model is called, or finds why it cannot run: its declaration is wrong, the
     * configuration cannot be read, a dataset file is nowhere to be found, a dataset could not be read to filter its
     * cases by tag, or a scorer cannot be resolved. Then its models are let go before they start (they would only
     * fail the same way), and {@link #execute} registers the failing {@code cannot run} test instead.
     */
    @Override
    public ArenaExecutionContext prepare(ArenaExecutionContext context) {
        try {
            return context.withEval(ready(context));
        }
        catch (RuntimeException e) {
            releaseDiscoveryInstance();
            cannotRun = true;
            for (TestDescriptor child : new ArrayList<>(getChildren())) {
                // without the run's services (an unreadable configuration) there is nothing to summarise either
                if (child instanceof ModelDescriptor || !context.hasRun()) {
                    removeChild(child);
                }
            }
            return context.withEvalFailure(e);
        }
    }

    private EvalRuntime ready(ArenaExecutionContext context) {
        if (declaredWrongly()) {
            throw new EvalDefinitionException(definition.testClass().getName() + " cannot run: "
                    + String.join("; ", definition.problems()));
        }
        checkNameIsItsOwn();
        RunServices run = context.run();
        checkNameIsItsOwnInTheSession(run);
        checkDatasetFiles(run.configuration().projectRoot());
        releaseDiscoveryInstance();
        synchronized (this) {
            if (!unreadableAtDiscovery.isEmpty()) {
                throw new ConfigurationException(definition.testClass().getName() + " cannot filter its cases by tag: "
                        + String.join("; ", unreadableAtDiscovery));
            }
        }
        EvalRuntime runtime = EvalRuntime.create(definition, run.evaluation(), this::includesScorer);
        if (definition.comparesConfigurations()) {
            run.leaderboards().compares(definition.name(), definition.models().stream()
                    .anyMatch(key -> definition.modelOf(key).isPresent()) ? Compared.CONFIGURATIONS
                            : Compared.CONFIGURATIONS_WITHOUT_MODEL);
        }
        return runtime;
    }

    /**
     * Refuses a name another eval class of the run has too: the leaderboard, the gates and the baseline know an eval by
     * its name, and one class's results would replace the other's without a word. Names that differ only where the
     * leaderboard's directory name cannot tell them apart ({@code "a b"} and {@code "a_b"}, {@code "Triage"} and
     * {@code "triage"} on a file system that ignores case) are the same name. Both classes fail, each naming the other.
     */
    private void checkNameIsItsOwn() {
        TestDescriptor parent = getParent().orElse(null);
        if (parent == null) {
            return;
        }
        String key = directoryKey(definition.name());
        for (TestDescriptor sibling : parent.getChildren()) {
            if (sibling != this && sibling instanceof EvalClassDescriptor other
                    && other.definition.testClass() != definition.testClass()
                    && directoryKey(other.definition.name()).equals(key)) {
                String same = other.definition.name().equals(definition.name())
                        ? "both named '" + definition.name() + "'"
                        : "named '" + definition.name() + "' and '" + other.definition.name() + "', which the "
                                + "leaderboard's files cannot tell apart";
                throw new EvalDefinitionException(definition.testClass().getName() + " cannot run: it and "
                        + other.definition.testClass().getName() + " are " + same + " (@Eval): the leaderboard, the "
                        + "gates and the baseline know an eval by its name, and one class's results would replace the "
                        + "other's. Give each class its own @Eval name.");
            }
        }
    }

    /**
     * Refuses a name another class took in an earlier execution of the launcher session into the same output
     * directory (Surefire executes one class at a time when it streams its tests): that class's results are kept, and
     * this one fails, naming it, rather than mixing its results with them under one eval.
     */
    private void checkNameIsItsOwnInTheSession(RunServices run) {
        run.claimEvalName(directoryKey(definition.name()), definition.testClass().getName()).ifPresent(other -> {
            throw new EvalDefinitionException(definition.testClass().getName() + " cannot run: " + other + ", run "
                    + "earlier into the same output directory, is named '" + definition.name() + "' (@Eval) too: the "
                    + "leaderboard, the gates and the baseline know an eval by its name, and this class's results "
                    + "would be mixed with that one's. Give each class its own @Eval name.");
        });
    }

    /** A name as the leaderboard's directory of the eval is named, ignoring case. */
    private static String directoryKey(String name) {
        return name.replaceAll("[^\\w.-]", "_").toLowerCase(Locale.ROOT);
    }

    /** Lets go of the instance the tag filters needed at discovery, and closes what created it. */
    private synchronized void releaseDiscoveryInstance() {
        discoveryInstance = null;
        if (discoveryInstances != null) {
            discoveryInstances.close();
            discoveryInstances = null;
        }
    }

    /** For a class that cannot run: its one test, failing with why. */
    @Override
    public ArenaExecutionContext execute(ArenaExecutionContext context, DynamicTestExecutor dynamicTestExecutor)
            throws InterruptedException {
        RuntimeException failure = context.evalFailure();
        if (failure != null) {
            CannotRunDescriptor test = new CannotRunDescriptor(getUniqueId(), definition, failure);
            addChild(test);
            dynamicTestExecutor.execute(test);
            // its results must reach the leaderboard before the summary tests read it
            dynamicTestExecutor.awaitFinished();
        }
        return context;
    }

    /**
     * After its last test: says the eval's warnings (its task finished cases without calling the model under
     * evaluation, a model repeated a tool call's id) on the console and as {@code warning} report entries of the
     * class, then closes what created the eval's instance (Spring's {@code afterTestClass}).
     */
    @Override
    public void after(ArenaExecutionContext context) {
        EvalRuntime eval = context.eval();
        if (eval != null && eval.definition() == definition) {
            try {
                for (String warning : eval.warnings()) {
                    context.junit().reportingEntryPublished(this, ReportEntry.from("warning", warning));
                    context.run().listeners().warning(warning);
                }
            }
            finally {
                eval.close();
            }
        }
    }

    private void checkDatasetFiles(Path root) {
        List<String> missing = new ArrayList<>();
        for (DatasetSpec spec : definition.datasets()) {
            if (spec.file() != null) {
                try {
                    DatasetFiles.locate(spec.file(), definition.testClass(), root);
                }
                catch (ConfigurationException e) {
                    missing.add(e.getMessage());
                }
            }
        }
        if (!missing.isEmpty()) {
            throw new ConfigurationException(definition.testClass().getName() + " cannot run: "
                    + String.join(" ", missing));
        }
    }
}
