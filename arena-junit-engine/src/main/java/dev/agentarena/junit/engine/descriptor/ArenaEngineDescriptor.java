package dev.agentarena.junit.engine.descriptor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;
import org.opentest4j.AssertionFailedError;

import dev.agentarena.junit.HumanLabels;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ArenaSettings;
import dev.agentarena.junit.engine.config.DisplayNames;
import dev.agentarena.junit.engine.config.LowScores;
import dev.agentarena.junit.engine.config.NodeMode;
import dev.agentarena.junit.engine.definition.DatasetSpec;
import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.evaluation.Shard;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.execution.RunServices;
import dev.agentarena.junit.engine.reporting.ReportingSession;
import dev.agentarena.junit.engine.reporting.gates.GateResult;
import dev.agentarena.junit.engine.reporting.gates.GateSpec;
import dev.agentarena.junit.engine.reporting.gates.Gates;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.results.ShardManifest;
import dev.agentarena.junit.engine.scoring.ScorerNames;

/**
 * The engine's root: carries the configuration read at discovery (or why it could not be read); at the end of the run
 * it has the run's leaderboard written and checks the whole-run gates, which fail this root when they do not hold
 * (they belong to no eval class).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ArenaEngineDescriptor extends EngineDescriptor implements Node<ArenaExecutionContext> {

    private final ArenaConfiguration configuration;
    private final RuntimeException configurationError;
    private final CaseFilter caseFilter;
    private final ScorerNames scorerNames = new ScorerNames();
    /** Inner classes with {@code @Eval} inside a selected class, which the engine cannot create. */
    private final Set<Class<?>> innerEvals = new LinkedHashSet<>();
    private SummaryPlan summaryPlan;

    /**
     * A root.
     *
     * @param configurationError why the configuration could not be read, or {@code null}
     * @param caseFilter the launcher's filters, applied to every eval's cases
     */
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

    CaseFilter caseFilter() {
        return caseFilter;
    }

    /** Which summary tests each eval class gets; read once, at discovery. */
    synchronized SummaryPlan summaryPlan() {
        if (summaryPlan == null) {
            summaryPlan = SummaryPlan.from(configuration);
        }
        return summaryPlan;
    }

    /**
     * Creates the context of a run.
     *
     * @param session what this run shares with the launcher session's other executions
     */
    public ArenaExecutionContext createContext(EngineExecutionListener listener, ReportingSession session) {
        if (configurationError != null) {
            return ArenaExecutionContext.failed(listener, configurationError);
        }
        try {
            ArenaSettings settings = configuration.typed();
            DisplayNames names = settings.displayNames();
            LowScores lowScores = settings.lowScores();
            NodeMode nodes = settings.nodes();
            Set<String> summarised = summarisedEvals();
            RunServices run = RunServices.start(configuration, session, partialSelection(), summarised::contains);
            return ArenaExecutionContext.of(listener, run, names, lowScores, nodes);
        }
        catch (RuntimeException e) {
            return ArenaExecutionContext.failed(listener, e);
        }
    }

    /**
     * The evals whose own leaderboard a test of this execution may ask for: those with a summary test (leaderboard,
     * gate, baseline, arena, agreement) left by the launcher's filters. Every other eval's results feed only the
     * run's leaderboard.
     */
    private Set<String> summarisedEvals() {
        Set<String> evals = new HashSet<>();
        for (TestDescriptor child : getChildren()) {
            if (child instanceof EvalClassDescriptor evalClass
                    && evalClass.getChildren().stream().anyMatch(SummaryDescriptor.class::isInstance)) {
                evals.add(evalClass.definition().name());
            }
        }
        return evals;
    }

    /**
     * Why this execution runs only part of an eval class, if it does: the first such class's reason. Known before the
     * first case runs: a selection by unique id or method, and filters that select cases by tag (they exclude a case
     * without tags: {@code --include-tag}, Surefire's {@code groups}). Filters that only exclude tags are not known to
     * leave a case out until the cases run, so such a run writes its results where a full run does. A shard
     * ({@code arena.shard}) is not partial here: it writes into a directory of its own, for the merge.
     */
    private Optional<String> partialSelection() {
        for (TestDescriptor child : getChildren()) {
            if (child instanceof EvalClassDescriptor evalClass) {
                Optional<String> partial = evalClass.selectionGap();
                if (partial.isPresent()) {
                    return partial;
                }
                for (TestDescriptor model : evalClass.getChildren()) {
                    if (model instanceof ModelDescriptor && !caseFilter.includesUntagged(model)) {
                        return Optional.of("only part of " + evalClass.definition().name() + " was selected: the "
                                + "launcher's tag filters select its cases by tag");
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Says which {@code arena.*} settings the engine does not know, and where a partial run writes its results, once
     * per run: on the console and as report entries of this root (IDEs and the Open Test Reporting XML show them).
     */
    @Override
    public ArenaExecutionContext before(ArenaExecutionContext context) {
        List<String> warnings = new ArrayList<>(configuration.unknownKeys());
        if (context.hasRun()) {
            warnings.addAll(configuration.unmatchedModelSettings(modelKeys(context.run().evaluation().judgeModelKey())));
            modelsMappingNote().ifPresent(warnings::add);
            context.run().outputNote().ifPresent(warnings::add);
        }
        for (String warning : warnings) {
            context.junit().reportingEntryPublished(this, ReportEntry.from("warning", warning));
            // on the console once per launcher session: Surefire executes class by class, each reading the same
            if (context.hasRun() && context.run().session().firstTold(warning)) {
                context.run().listeners().warning(warning);
            }
        }
        return context;
    }

    @Override
    public void after(ArenaExecutionContext context) {
        if (context.hasRun()) {
            context.run().finish(evalRuns()).ifPresent(leaderboard -> checkRunGates(context.run(), leaderboard));
        }
    }

    /** The shard of every dataset this run runs ({@code arena.shard}), if it runs one; empty when it is invalid. */
    Optional<Shard> shard() {
        try {
            return Shard.from(configuration);
        }
        catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * What {@code arena.yaml}'s {@code models:} mapping replaces, if it selects the models of evals that name others
     * ({@code @UseModels}, {@code @EvalModel}): a mapping written to configure models selects them too.
     */
    private Optional<String> modelsMappingNote() {
        Optional<String> mapping = configuration.modelsMapping();
        if (mapping.isEmpty()) {
            return Optional.empty();
        }
        List<String> replaced = new ArrayList<>();
        for (TestDescriptor child : getChildren()) {
            if (child instanceof EvalClassDescriptor evalClass && !evalClass.definition().comparesConfigurations()) {
                EvalDefinition definition = evalClass.definition();
                List<String> own = new ArrayList<>(AnnotationSupport.findAnnotation(definition.testClass(),
                        UseModels.class).map(models -> List.of(models.value())).orElse(List.of()));
                definition.declaredModels().forEach(model -> own.add(model.key()));
                if (!own.isEmpty() && !Set.copyOf(own).equals(Set.copyOf(definition.models()))) {
                    replaced.add(definition.testClass().getSimpleName() + " (" + String.join(", ", own) + ")");
                }
            }
        }
        if (replaced.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("arena.yaml's models: mapping (" + mapping.get().substring("in ".length())
                + ") selects the models of every eval (" + String.join(", ", configuration.getList(Constants.MODELS))
                + "), replacing those named with @UseModels or @EvalModel by " + String.join(", ", replaced)
                + ": a mapping selects its keys as well as configuring them. To configure a model without selecting "
                + "it, write a top-level \"models.<key>\": key of arena.yaml, or set arena.models.<key>.<name> in "
                + "junit-platform.properties; to choose the models, set " + Constants.MODELS + ".");
    }

    /**
     * Every model key of this execution: the evals' models (those their configurations run on) and their own
     * {@code @EvalModel} keys, and the judge.
     */
    private Set<String> modelKeys(String judge) {
        Set<String> keys = new TreeSet<>(Set.of(judge));
        for (TestDescriptor child : getChildren()) {
            if (child instanceof EvalClassDescriptor evalClass) {
                EvalDefinition definition = evalClass.definition();
                definition.models().forEach(key -> definition.modelOf(key).ifPresent(keys::add));
                evalClass.definition().declaredModels().forEach(model -> keys.add(model.key()));
            }
        }
        return keys;
    }

    /** The eval classes of this execution, for a shard's manifest. */
    private List<ShardManifest.EvalRun> evalRuns() {
        List<ShardManifest.EvalRun> evals = new ArrayList<>();
        for (TestDescriptor child : getChildren()) {
            if (child instanceof EvalClassDescriptor) {
                EvalDefinition definition = ((EvalClassDescriptor) child).definition();
                evals.add(new ShardManifest.EvalRun(definition.name(), definition.testClass().getName(),
                        definition.models(), definition.datasets().stream().map(DatasetSpec::name)
                                .collect(Collectors.toList()),
                        ((EvalClassDescriptor) child).selectionGap().orElse(null),
                        AnnotationSupport.findAnnotation(definition.testClass(), HumanLabels.class)
                                .map(HumanLabels::value).orElse(null)));
            }
        }
        return evals;
    }

    private void checkRunGates(RunServices run, Leaderboard leaderboard) {
        GateSpec gates = new GateSpec(summaryPlan().runGates());
        if (gates.rules().isEmpty()) {
            return;
        }
        Optional<Shard> shard = run.shard().filter(Shard::partial);
        if (shard.isPresent()) {
            run.listeners().warning("the run's gates are not checked on shard " + shard.get() + ": they judge the "
                    + "whole run, once the shards are merged");
            return;
        }
        List<String> failed = new ArrayList<>();
        for (GateResult result : Gates.evaluate(leaderboard, gates)) {
            run.listeners().gateChecked(result);
            if (result.failed()) {
                failed.add(result.message());
            }
        }
        if (!failed.isEmpty()) {
            throw new AssertionFailedError(String.join("\n", failed));
        }
    }

    @Override
    public void cleanUp(ArenaExecutionContext context) {
        if (context.hasRun()) {
            context.run().close();
        }
    }

    /** Notes an inner eval class found inside a selected class, for discovery to report. */
    public void noteInnerEval(Class<?> innerClass) {
        innerEvals.add(innerClass);
    }

    /** The inner eval classes found inside selected classes, in the order found. */
    public Set<Class<?>> innerEvals() {
        return Collections.unmodifiableSet(innerEvals);
    }

    /**
     * The eval class's descriptor below {@code parent}: the one discovery already added (a second selector of the
     * same class must not create another), or a new one, with its summary tests, for the caller to add.
     */
    public EvalClassDescriptor evalClassDescriptor(TestDescriptor parent, Class<?> evalClass) {
        UniqueId id = ArenaUniqueIds.evalClass(parent.getUniqueId(), evalClass);
        return parent.findByUniqueId(id).map(EvalClassDescriptor.class::cast).orElseGet(() -> {
            EvalClassDescriptor descriptor = new EvalClassDescriptor(id, EvalDefinition.of(evalClass, configuration, scorerNames),
                    caseFilter, configuration.projectRoot());
            descriptor.addSummaryNodes(this);
            return descriptor;
        });
    }
}
