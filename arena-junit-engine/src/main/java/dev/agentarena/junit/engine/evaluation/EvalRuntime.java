package dev.agentarena.junit.engine.evaluation;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.AnnotationSupport;

import dev.agentarena.junit.Arena;
import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.datasets.DatasetStream;
import dev.agentarena.junit.engine.datasets.RowsReadAhead;
import dev.agentarena.junit.engine.datasets.MaskedIds;
import dev.agentarena.junit.engine.definition.DatasetSpec;
import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.definition.EvalDefinitionException;
import dev.agentarena.junit.engine.definition.Repeats;
import dev.agentarena.junit.engine.integration.EvalInstanceStrategies;
import dev.agentarena.junit.engine.lifecycle.CaseCallbacks;
import dev.agentarena.junit.engine.lifecycle.EvalInstances;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.evaluation.agents.TrajectoryRecorder;
import dev.agentarena.junit.engine.evaluation.arena.ArenaOutputs;
import dev.agentarena.junit.engine.evaluation.arena.PairwiseComparisons;
import dev.agentarena.junit.engine.evaluation.declared.DeclaredModels;
import dev.agentarena.junit.engine.scoring.MethodScorerDefinition;
import dev.agentarena.junit.engine.scoring.OneAtATime;
import dev.agentarena.junit.engine.scoring.ScorerDefinition;
import dev.agentarena.junit.engine.scoring.ScorerRegistry;
import dev.agentarena.junit.engine.scoring.ScorerVersions;

/**
 * One eval class, ready to run: its instance, its scorers resolved by name, its task and hooks, and how many times
 * each case runs. It evaluates the eval's datasets on its models. Closed after the class's last case, which closes
 * what created its instance ({@link EvalInstances}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EvalRuntime implements AutoCloseable {

    private final EvaluationServices run;
    private final EvalDefinition definition;
    private final int repeats;
    private final TimeLimits limits;
    private final EvalInstances instances;
    private final CaseCallbacks caseCallbacks;
    private final Object instance;
    private final ScorerRegistry registry;
    private final List<ScorerDefinition> methodScorers;
    private final List<ScorerDefinition> defaultScorers;
    /** The scorers of a case without an {@code eval_type}: the same list for every such case. */
    private final List<ScorerDefinition> caseScorers;
    /** The scorers of a case by its {@code eval_type}, as found: asked for every case, looked up once per type. */
    private final Map<String, List<ScorerDefinition>> scorersByEvalType = new ConcurrentHashMap<>();
    /** Each scorer's registry name in this eval, by scorer name: asked for every result. */
    private final Map<String, String> registryNames = new ConcurrentHashMap<>();
    private final TaskRunner task;
    private final EvalHooks hooks;
    private final Predicate<String> scorerFilter;
    private final ScorerOptionLevels options;
    private final ModelCallCheckTally modelCalls;
    private final TrajectoryRecorder.RepeatedIds repeatedToolCallIds;
    private final SharedProblems problems = new SharedProblems();
    // the outputs the @Arena comparisons need, when the class asks for them
    private final ArenaOutputs arenaOutputs;
    // its @EvalModel members as models, set up when the first case asks for one; guarded by this
    private DeclaredModels declaredModels;

    private EvalRuntime(EvaluationServices run, EvalDefinition definition, EvalInstances instances, Object instance,
            ScorerRegistry registry,
            List<ScorerDefinition> methodScorers, List<ScorerDefinition> defaultScorers,
            Predicate<String> scorerFilter) {
        this.run = run;
        this.definition = definition;
        this.repeats = Repeats.of(run.configuration(), definition);
        this.limits = TimeLimits.of(run.configuration(), definition.testClass());
        this.instances = instances;
        this.caseCallbacks = instances.caseCallbacks(instance, definition.task());
        this.scorerFilter = scorerFilter;
        this.instance = instance;
        this.registry = registry;
        this.methodScorers = methodScorers;
        this.defaultScorers = defaultScorers;
        List<ScorerDefinition> scorers = new ArrayList<>(defaultScorers);
        scorers.addAll(methodScorers);
        this.caseScorers = List.copyOf(scorers);
        this.task = new TaskRunner(definition.task(), instance, caseCallbacks, definition.name(),
                definition::configuration, run.maxSpans());
        this.hooks = new EvalHooks(definition, instance, instances);
        this.options = new ScorerOptionLevels(run.configuration(), definition);
        this.arenaOutputs = AnnotationSupport.isAnnotated(definition.testClass(), Arena.class) ? new ArenaOutputs()
                : null;
        this.repeatedToolCallIds = new TrajectoryRecorder.RepeatedIds(definition.name());
        this.modelCalls = new ModelCallCheckTally(run.configuration().typed().modelCallCheck(), definition.name(),
                definition.task() == null ? null : task.describe(),
                AnnotationSupport.isAnnotated(definition.testClass(), UseModels.class)
                        || !definition.declaredModels().isEmpty() || definition.comparesConfigurations()
                        || run.configuration().get(Constants.MODELS).isPresent(),
                key -> definition.modelOf(key).isPresent());
    }

    /**
     * Instantiates the eval class (with its no-argument constructor, or by the framework it is annotated for: see
     * {@link EvalInstanceStrategies}) and resolves its scorers.
     *
     * @param scorerFilter which scores' tests are selected (an IDE may run a single {@code @Scorer} method)
     * @throws IllegalArgumentException when a default scorer is unknown, naming it and the known ones
     * @throws dev.agentarena.junit.engine.config.ConfigurationException when an {@code @EvalModel} key is one a
     *         connector serves
     */
    public static EvalRuntime create(EvalDefinition definition, EvaluationServices run,
            Predicate<String> scorerFilter) {
        DeclaredModels.checkKeys(definition.declaredModels(), run.models());
        // a bad labels file stops the eval before its first case, naming the file and line
        run.labels().load(definition.name(), definition.testClass());
        ScorerRegistry registry = run.scorersFor(definition.testClass());
        // names first: a typo in @Eval(scorers) is the likelier mistake, and it needs no instance to report
        List<ScorerDefinition> defaults = new ArrayList<>();
        for (String name : definition.defaultScorers()) {
            defaults.add(registry.find(name).orElseThrow(
                    () -> new EvalDefinitionException(definition.testClass().getSimpleName() + ": "
                            + registry.unknownScorerMessage(name))));
        }
        EvalInstances instances = EvalInstanceStrategies.open(definition.testClass(), run.configuration()::get);
        try {
            Object instance = definition.needsInstance() ? instances.createEvalInstance() : null;
            // One instance serves every case, and cases run concurrently: its @Scorer methods are called one at a
            // time unless the class says they may run side by side (@Eval(concurrentScorers = true)).
            boolean concurrent = AnnotationSupport.findAnnotation(definition.testClass(), Eval.class)
                    .map(Eval::concurrentScorers).orElse(false);
            Duration scorerLimit = TimeLimits.of(run.configuration(), definition.testClass())
                    .of(TimeLimits.Kind.SCORER);
            OneAtATime oneAtATime = concurrent ? null : new OneAtATime(scorerLimit);
            List<ScorerDefinition> methodScorers = new ArrayList<>();
            for (Method method : definition.scorerMethods()) {
                methodScorers.add(new MethodScorerDefinition(method,
                        Modifier.isStatic(method.getModifiers()) ? null : instance, oneAtATime));
            }
            return new EvalRuntime(run, definition, instances, instance, registry, methodScorers, defaults,
                    scorerFilter);
        }
        catch (RuntimeException e) {
            try {
                instances.close();
            }
            catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
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
        DatasetStream opened = open(dataset);
        // a file's rows are parsed on a thread of their own; a dataset method's stream stays on the caller's thread
        DatasetStream rows = dataset.fileName().isPresent() ? RowsReadAhead.of(opened, dataset.name()) : opened;
        try {
            return new DatasetEvaluation(run, new CaseEvaluator(run, this, modelKey, dataset.name()), limits, rows,
                    selected, repeats, problems, batching(modelKey), pacing(modelKey), arenaOutputs == null ? evaluated -> { }
                            : evaluated -> keepForArena(dataset.name(), modelKey, evaluated));
        }
        catch (RuntimeException e) {
            rows.close();
            throw e;
        }
    }

    /** Keeps what the arena compares of a case: its first repeat's output. */
    private void keepForArena(String dataset, String modelKey, List<CaseOutcome> repeats) {
        if (!repeats.isEmpty()) {
            CaseOutcome first = repeats.get(0);
            arenaOutputs.keep(dataset, modelKey, first.caseId(), first.evalCase(), first.scoredOutput());
        }
    }

    /** Opens a dataset of the eval: its file, or the rows its method returns. */
    DatasetStream open(DatasetSpec dataset) {
        DatasetStream rows = dataset.open(definition.testClass(), run.configuration().projectRoot(), () -> instance);
        return run.redactor().isEmpty() ? rows : MaskedIds.of(rows, run.redactor()::redact, dataset.describe());
    }

    /**
     * How many rows of a dataset file the predicate accepts (for the console's progress, on a thread of its own):
     * counted from the file's bytes when every row is selected and its format allows, else the file read once more;
     * empty for a dataset method, which is not called twice, for a file that cannot be read to its end, and when the
     * thread is interrupted, which stops the count.
     *
     * @param everyRow whether the predicate accepts every row, so that the rows need not be read
     */
    public OptionalLong countSelected(DatasetSpec dataset, Predicate<DatasetRow> selected, boolean everyRow) {
        if (dataset.fileName().isEmpty()) {
            return OptionalLong.empty();
        }
        if (everyRow) {
            try {
                OptionalLong rows = dataset.countRows(definition.testClass(), run.configuration().projectRoot());
                if (rows.isPresent()) {
                    return rows;
                }
            }
            catch (RuntimeException e) {
                // the run itself reports what is wrong with the file
                return OptionalLong.empty();
            }
        }
        long count = 0;
        try (DatasetStream rows = open(dataset)) {
            while (rows.hasNext()) {
                if (Thread.currentThread().isInterrupted()) {
                    return OptionalLong.empty();
                }
                if (selected.test(rows.next())) {
                    count++;
                }
            }
        }
        catch (RuntimeException e) {
            // the run itself reports what is wrong with the file
            return OptionalLong.empty();
        }
        return OptionalLong.of(count);
    }

    /** Masks the run's secrets in whatever the eval's nodes show: case ids, tags, score names. */
    public String redact(String text) {
        return run.redactor().redact(text);
    }

    /**
     * Says what the eval will cost before its first model call, once per execution and only when a budget is set.
     *
     * @param targets every selected model and dataset of the eval, asked for only when an estimate is given
     */
    public void estimateCostOnce(Supplier<List<CostEstimate.Target>> targets) {
        if (run.firstEstimate(definition.name())) {
            run.events().costEstimated(definition.name(), CostEstimate.describe(run, this, targets.get()));
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
     * Where the eval's model keys are set, for an error about one: {@code arena.models} and where that was set, else
     * the class's {@code @UseModels} (or {@code @EvalModel} members).
     */
    String modelKeysSource() {
        return run.configuration().getList(Constants.MODELS).isEmpty()
                ? "@UseModels or an @EvalModel member of " + definition.testClass().getName()
                : Constants.MODELS + " " + run.configuration().sourceOf(Constants.MODELS);
    }

    /** The configuration problems every case of the eval shares, each reported once. */
    SharedProblems problems() {
        return problems;
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

    /** What surrounds each case (Spring's per-test callbacks, for a Spring eval class). */
    CaseCallbacks caseCallbacks() {
        return caseCallbacks;
    }

    TaskRunner task() {
        return task;
    }

    EvalHooks hooks() {
        return hooks;
    }

    /**
     * How the model behind a key answers in batches, if it does; empty too when the model cannot be created, which
     * its first case reports.
     */
    Optional<ModelEndpoint.Batching> batching(String modelKey) {
        try {
            return endpoint(modelKey).batching();
        }
        catch (RuntimeException cannotBeCreated) {
            return Optional.empty();
        }
    }

    /**
     * What the calls of a batching model wait on now (its batches, where each stands), for the console's progress;
     * empty for a model that answers as it is called.
     */
    public List<String> waitingOn(String modelKey) {
        try {
            return endpoint(modelKey).waitingOn();
        }
        catch (RuntimeException cannotBeCreated) {
            return List.of();
        }
    }

    /** Whether the model behind a key answers in batches (its cases then wait, and the console says on what). */
    public boolean batches(String modelKey) {
        return batching(modelKey).isPresent();
    }

    /**
     * How the model behind a key paces itself, if it does; empty too when the model cannot be created, which its
     * first case reports.
     */
    Optional<ModelEndpoint.Pacing> pacing(String modelKey) {
        try {
            return endpoint(modelKey).pacing();
        }
        catch (RuntimeException cannotBeCreated) {
            return Optional.empty();
        }
    }

    /**
     * Whether a case of this eval on the model is computation alone before its scorers: no {@code @Task}, no hook, and
     * a model that answers from the case itself ({@link ModelEndpoint#answersAtOnce()}, the {@code recorded} model);
     * false too when the model cannot be created, which its first case reports.
     */
    boolean computesOnly(String modelKey) {
        if (definition.task() != null || !hooks.none()) {
            return false;
        }
        try {
            return endpoint(modelKey).answersAtOnce();
        }
        catch (RuntimeException cannotBeCreated) {
            return false;
        }
    }

    /**
     * The model behind a key: the eval's own {@code @EvalModel} member for a key it declares, else the run's
     * connector for the key; for a configuration ({@code @EvalConfiguration}), the model it runs on, or none.
     */
    ModelEndpoint endpoint(String key) {
        Optional<String> model = definition.modelOf(key);
        if (model.isEmpty()) {
            return new NoModelEndpoint(definition.name(), key);
        }
        String modelKey = model.get();
        DeclaredModels declared;
        synchronized (this) {
            if (declaredModels == null) {
                declaredModels = DeclaredModels.of(definition.declaredModels(), instance, run.models());
            }
            declared = declaredModels;
        }
        return declared.endpoint(modelKey).orElseGet(() -> run.models().endpoint(modelKey));
    }

    /**
     * The scorers of a case: its {@code eval_type}, or the eval's default scorers, followed by the eval's
     * {@code @Scorer} methods.
     *
     * @throws IllegalArgumentException when the case names an unknown {@code eval_type}
     */
    List<ScorerDefinition> scorersFor(EvalCase evalCase) {
        if (evalCase.evalType().isEmpty()) {
            return caseScorers;
        }
        String name = evalCase.evalType().get();
        List<ScorerDefinition> known = scorersByEvalType.get(name);
        if (known != null) {
            return known;
        }
        List<ScorerDefinition> scorers = new ArrayList<>();
        // an unknown name is not remembered: every case that names it is told so
        scorers.add(registry.find(name).orElseThrow(() -> new IllegalArgumentException(
                "case '" + evalCase.id() + "': eval_type: " + registry.unknownScorerMessage(name))));
        scorers.addAll(methodScorers);
        List<ScorerDefinition> found = List.copyOf(scorers);
        scorersByEvalType.putIfAbsent(name, found);
        return found;
    }

    /** {@link ScorerVersions#registryName} of a scorer of this eval, computed once per scorer. */
    String registryName(String scorer) {
        String known = registryNames.get(scorer);
        if (known != null) {
            return known;
        }
        return registryNames.computeIfAbsent(scorer, name -> ScorerVersions.registryName(definition.name(), name));
    }

    /** The scorers that would grade a case whose row could not be read. */
    List<ScorerDefinition> scorersForUnreadableRow() {
        return caseScorers;
    }

    /** Counts, per model, the cases its task finished without calling the model under evaluation. */
    ModelCallCheckTally modelCalls() {
        return modelCalls;
    }

    /** Notes the answers of the eval's models that gave two tool calls one id. */
    TrajectoryRecorder.RepeatedIds repeatedToolCallIds() {
        return repeatedToolCallIds;
    }

    /**
     * Once the eval's cases ran, its warnings: its task finished cases without calling the model under evaluation
     * ({@value dev.agentarena.junit.engine.Constants#TASK_REQUIRE_MODEL_CALL}, naming the models and counts, when the
     * check is a warning); a model gave two tool calls of one answer the same id. Empty when neither happened.
     */
    public List<String> warnings() {
        List<String> warnings = new ArrayList<>();
        modelCalls.warning().ifPresent(warnings::add);
        repeatedToolCallIds.warning().ifPresent(warnings::add);
        return warnings;
    }

    /**
     * The pairwise comparisons of an {@code @Arena} class, once its models ran; empty for a class without it.
     *
     * @throws dev.agentarena.junit.engine.config.ConfigurationException when no connector serves the judge's key
     */
    public Optional<PairwiseComparisons> arena() {
        if (arenaOutputs == null) {
            return Optional.empty();
        }
        Arena arena = AnnotationSupport.findAnnotation(definition.testClass(), Arena.class).orElseThrow();
        Optional<String> configured = run.configuration().get(Constants.ARENA_JUDGE).map(String::strip)
                .filter(key -> !key.isEmpty());
        String judge = configured.orElse(arena.judge().isBlank() ? run.judgeModelKey() : arena.judge().strip());
        if (!run.models().serves(judge)) {
            String where = configured.isPresent() ? Constants.ARENA_JUDGE
                    : !arena.judge().isBlank() ? "@Arena(judge) on " + definition.testClass().getName()
                            : Constants.JUDGE_MODEL;
            throw new dev.agentarena.junit.engine.config.ConfigurationException("The arena of " + definition.name()
                    + " cannot compare: no model client supports its judge's key '" + judge + "' (set by " + where
                    + "). Use sim_judge, openai:<model>, or add a ModelClientProvider.");
        }
        Budget budget = run.budget();
        return Optional.of(new PairwiseComparisons(definition.name(), arenaOutputs,
                (key, evalCase, onCompletion) -> run.models().judge(key, evalCase, 0, completion -> {
                    // charged like a scorer's judge call (JudgeUsage)
                    budget.charge(completion.costUsd());
                    onCompletion.accept(completion);
                }), run.scheduler().callPool(), run.scheduler().concurrency(), this::redact, judge, arena.rubric(),
                () -> budget.exhausted() ? Optional.of(budget.reason()) : Optional.empty()));
    }

    /** After the class's last case: closes what created the instance (Spring's {@code afterTestClass}). */
    @Override
    public void close() {
        try {
            instances.close();
        }
        finally {
            if (arenaOutputs != null) {
                arenaOutputs.close();
            }
        }
    }
}
