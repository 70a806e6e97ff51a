package dev.agentarena.junit.engine.execution;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.platform.commons.support.ReflectionSupport;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.hierarchical.Node;

import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.datasets.DatasetFiles;

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
    private final CaseFilter caseFilter;
    private final Path projectRoot;
    private boolean fullySelected;
    private final Set<String> selectedScorers = new LinkedHashSet<>();
    private final List<String> unreadableAtDiscovery = new ArrayList<>();
    private Object discoveryInstance;

    /** A descriptor with no models yet; selection adds them. No tag filtering. */
    public EvalClassDescriptor(UniqueId uniqueId, EvalDefinition definition) {
        this(uniqueId, definition, CaseFilter.NONE, Path.of("").toAbsolutePath());
    }

    /**
     * A descriptor with no models yet, whose cases run only when the launcher's filters include them.
     *
     * @param projectRoot where relative dataset files are found, should the filters need them read at discovery
     */
    public EvalClassDescriptor(UniqueId uniqueId, EvalDefinition definition, CaseFilter caseFilter,
            Path projectRoot) {
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
        ModelDescriptor model = new ModelDescriptor(id, modelKey, this);
        addChild(model);
        return model;
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
            discoveryInstance = ReflectionSupport.newInstance(definition.testClass());
        }
        return discoveryInstance;
    }

    /** A dataset that the tag filters needed at discovery could not be read: this class reports it when it runs. */
    synchronized void datasetUnreadable(DatasetSpec spec, RuntimeException error) {
        unreadableAtDiscovery.add(spec.describe() + ": " + error.getMessage());
    }

    /** Kept, though its containers were filtered away, when a dataset could not be read to filter its cases. */
    @Override
    public synchronized boolean mayRegisterTests() {
        return !unreadableAtDiscovery.isEmpty();
    }

    /**
     * Fails the class, before any model is called, when its declaration is wrong, the configuration cannot be read,
     * a dataset file is nowhere to be found, or a dataset could not be read to filter its cases by tag.
     */
    @Override
    public ArenaExecutionContext before(ArenaExecutionContext context) {
        if (!definition.problems().isEmpty()) {
            throw new EvalDefinitionException(definition.testClass().getName() + " cannot run: "
                    + String.join("; ", definition.problems()));
        }
        RunServices run = context.run();
        checkDatasetFiles(run.configuration().projectRoot());
        synchronized (this) {
            discoveryInstance = null;
            if (!unreadableAtDiscovery.isEmpty()) {
                throw new ConfigurationException(definition.testClass().getName() + " cannot filter its cases by tag: "
                        + String.join("; ", unreadableAtDiscovery));
            }
        }
        EvalRuntime eval = EvalRuntime.create(definition, run.scorersFor(definition.testClass()), this::includesScorer);
        return context.withEval(eval);
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
