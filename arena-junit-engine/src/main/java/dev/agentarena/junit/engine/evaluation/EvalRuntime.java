package dev.agentarena.junit.engine.evaluation;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.datasets.DatasetStream;
import dev.agentarena.junit.engine.definition.DatasetSpec;
import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.definition.EvalDefinitionException;
import dev.agentarena.junit.engine.definition.Repeats;
import dev.agentarena.junit.engine.scoring.MethodScorerDefinition;
import dev.agentarena.junit.engine.scoring.ScorerDefinition;
import dev.agentarena.junit.engine.scoring.ScorerRegistry;

/**
 * One eval class, ready to run: its instance, its scorers resolved by name, its task and hooks, and how many times
 * each case runs. It evaluates the eval's datasets on its models.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EvalRuntime {

    private final RunServices run;
    private final EvalDefinition definition;
    private final int repeats;
    private final Object instance;
    private final ScorerRegistry registry;
    private final List<ScorerDefinition> methodScorers;
    private final List<ScorerDefinition> defaultScorers;
    private final TaskRunner task;
    private final EvalHooks hooks;
    private final Predicate<String> scorerFilter;
    private final ScorerOptionLevels options;

    private EvalRuntime(RunServices run, EvalDefinition definition, Object instance, ScorerRegistry registry,
            List<ScorerDefinition> methodScorers, List<ScorerDefinition> defaultScorers,
            Predicate<String> scorerFilter) {
        this.run = run;
        this.definition = definition;
        this.repeats = Repeats.of(run.configuration(), definition);
        this.scorerFilter = scorerFilter;
        this.instance = instance;
        this.registry = registry;
        this.methodScorers = methodScorers;
        this.defaultScorers = defaultScorers;
        this.task = new TaskRunner(definition.task(), instance);
        this.hooks = new EvalHooks(definition, instance);
        this.options = new ScorerOptionLevels(run.configuration(), definition);
    }

    /**
     * Instantiates the eval class and resolves its scorers.
     *
     * @param scorerFilter which scores' tests are selected (an IDE may run a single {@code @Scorer} method)
     * @throws IllegalArgumentException when a default scorer is unknown, naming it and the known ones
     */
    public static EvalRuntime create(EvalDefinition definition, RunServices run, Predicate<String> scorerFilter) {
        ScorerRegistry registry = run.scorersFor(definition.testClass());
        // names first: a typo in @Eval(scorers) is the likelier mistake, and it needs no instance to report
        List<ScorerDefinition> defaults = new ArrayList<>();
        for (String name : definition.defaultScorers()) {
            defaults.add(registry.find(name).orElseThrow(
                    () -> new EvalDefinitionException(definition.testClass().getSimpleName() + ": "
                            + registry.unknownScorerMessage(name))));
        }
        Object instance = definition.needsInstance() ? instantiate(definition.testClass()) : null;
        List<ScorerDefinition> methodScorers = new ArrayList<>();
        for (Method method : definition.scorerMethods()) {
            methodScorers.add(new MethodScorerDefinition(method,
                    Modifier.isStatic(method.getModifiers()) ? null : instance));
        }
        return new EvalRuntime(run, definition, instance, registry, methodScorers, defaults, scorerFilter);
    }

    private static Object instantiate(Class<?> evalClass) {
        try {
            evalClass.getDeclaredConstructor();
        }
        catch (NoSuchMethodException e) {
            throw new EvalDefinitionException(evalClass.getName() + " needs a constructor without parameters: the "
                    + "engine creates one instance per run to call its non-static dataset, scorer, task and hook "
                    + "methods (or make those methods static)");
        }
        return ReflectionSupport.newInstance(evalClass);
    }

    /** What the class declares. */
    public EvalDefinition definition() {
        return definition;
    }

    /** How many times each case runs. */
    public int repeats() {
        return repeats;
    }

    /** Whether the scorer's tests are selected (an IDE may run a single {@code @Scorer} method). */
    public boolean includesScorer(String scorer) {
        return scorerFilter.test(scorer);
    }

    /**
     * Evaluates one dataset on one model, calling the model only for the rows the selection accepts.
     *
     * @throws RuntimeException when the dataset cannot be opened (a missing file, a failing dataset method)
     */
    public DatasetEvaluation evaluate(DatasetSpec dataset, String modelKey, Predicate<DatasetRow> selected) {
        DatasetStream rows = open(dataset);
        try {
            return new DatasetEvaluation(run, new CaseEvaluator(run, this, modelKey, dataset.name()), rows, selected,
                    repeats);
        }
        catch (RuntimeException e) {
            rows.close();
            throw e;
        }
    }

    /** Opens a dataset of the eval: its file, or the rows its method returns. */
    DatasetStream open(DatasetSpec dataset) {
        return dataset.open(definition.testClass(), run.configuration().projectRoot(), () -> instance);
    }

    /**
     * Says what the eval will cost before its first model call, once per execution and only when a budget is set.
     *
     * @param targets every selected model and dataset of the eval, asked for only when an estimate is given
     */
    public void estimateCostOnce(Supplier<List<CostEstimate.Target>> targets) {
        if (run.firstEstimate(definition.name())) {
            run.listeners().costEstimated(definition.name(), CostEstimate.describe(run, this, targets.get()));
        }
    }

    Object instance() {
        return instance;
    }

    /** The options each scorer reads for each case of this eval. */
    ScorerOptionLevels options() {
        return options;
    }

    /**
     * Why a case's {@code scorer_options} cannot name this scorer (the known names and the nearest one), or empty
     * when the eval knows it: a registered scorer or one of its {@code @Scorer} methods.
     */
    Optional<String> unknownScorer(String name) {
        if (registry.find(name).isPresent() || definition.scorerMethods().stream()
                .anyMatch(method -> EvalDefinition.scorerName(method).equals(name))) {
            return Optional.empty();
        }
        return Optional.of(registry.unknownScorerMessage(name));
    }

    TaskRunner task() {
        return task;
    }

    EvalHooks hooks() {
        return hooks;
    }

    /**
     * The scorers of a case: its {@code eval_type}, or the eval's default scorers, followed by the eval's
     * {@code @Scorer} methods.
     *
     * @throws IllegalArgumentException when the case names an unknown {@code eval_type}
     */
    List<ScorerDefinition> scorersFor(EvalCase evalCase) {
        List<ScorerDefinition> scorers = new ArrayList<>();
        if (evalCase.evalType().isPresent()) {
            String name = evalCase.evalType().get();
            scorers.add(registry.find(name).orElseThrow(() -> new IllegalArgumentException(
                    "case '" + evalCase.id() + "': eval_type: " + registry.unknownScorerMessage(name))));
        }
        else {
            scorers.addAll(defaultScorers);
        }
        scorers.addAll(methodScorers);
        return scorers;
    }

    /** The scorers that would grade a case whose row could not be read. */
    List<ScorerDefinition> scorersForUnreadableRow() {
        List<ScorerDefinition> scorers = new ArrayList<>(defaultScorers);
        scorers.addAll(methodScorers);
        return scorers;
    }
}
