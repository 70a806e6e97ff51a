package dev.agentarena.junit.engine.execution;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.models.ModelRegistry;
import dev.agentarena.junit.engine.models.declared.DeclaredModel;
import dev.agentarena.junit.engine.models.declared.DeclaredModels;
import dev.agentarena.junit.engine.scoring.MethodScorerDefinition;
import dev.agentarena.junit.engine.scoring.ScorerDefinition;
import dev.agentarena.junit.engine.scoring.ScorerRegistry;
import dev.agentarena.junit.model.ModelClient;

/**
 * One eval class, ready to run: its instance, its scorers resolved by name, its task and hooks.
 */
final class EvalRuntime {

    private final EvalDefinition definition;
    private final Object instance;
    private final ScorerRegistry registry;
    private final List<ScorerDefinition> methodScorers;
    private final List<ScorerDefinition> defaultScorers;
    private final TaskRunner task;
    private final EvalHooks hooks;
    private final Predicate<String> scorerFilter;
    private DeclaredModels declaredModels;

    private EvalRuntime(EvalDefinition definition, Object instance, ScorerRegistry registry,
            List<ScorerDefinition> methodScorers, List<ScorerDefinition> defaultScorers,
            Predicate<String> scorerFilter) {
        this.definition = definition;
        this.scorerFilter = scorerFilter;
        this.instance = instance;
        this.registry = registry;
        this.methodScorers = methodScorers;
        this.defaultScorers = defaultScorers;
        this.task = new TaskRunner(definition.task(), instance);
        this.hooks = new EvalHooks(definition, instance);
    }

    /**
     * Instantiates the eval class and resolves its scorers.
     *
     * @throws IllegalArgumentException when a default scorer is unknown, naming it and the known ones
     */
    static EvalRuntime create(EvalDefinition definition, ScorerRegistry registry, Predicate<String> scorerFilter) {
        // names first: a typo in @Eval(scorers) is the likelier mistake, and it needs no instance to report
        List<ScorerDefinition> defaults = new ArrayList<>();
        for (String name : definition.defaultScorers()) {
            defaults.add(registry.find(name).orElseThrow(
                    () -> new EvalDefinitionException(definition.testClass().getSimpleName() + ": "
                            + registry.unknownScorerMessage(name))));
        }
        Object instance = needsInstance(definition) ? instantiate(definition.testClass()) : null;
        List<ScorerDefinition> methodScorers = new ArrayList<>();
        for (Method method : definition.scorerMethods()) {
            methodScorers.add(new MethodScorerDefinition(method,
                    Modifier.isStatic(method.getModifiers()) ? null : instance));
        }
        return new EvalRuntime(definition, instance, registry, methodScorers, defaults, scorerFilter);
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

    private static boolean needsInstance(EvalDefinition definition) {
        List<Method> methods = new ArrayList<>(definition.scorerMethods());
        definition.datasets().forEach(spec -> {
            if (spec.method() != null) {
                methods.add(spec.method());
            }
        });
        if (definition.task() != null) {
            methods.add(definition.task());
        }
        methods.addAll(definition.preRequestHooks());
        methods.addAll(definition.postProcessHooks());
        return methods.stream().anyMatch(m -> !Modifier.isStatic(m.getModifiers())
                && m.getDeclaringClass().isAssignableFrom(definition.testClass()))
                || definition.declaredModels().stream().anyMatch(DeclaredModel::needsInstance);
    }

    /**
     * Sets up the clients of the eval's {@code @EvalModel} members, before any case runs; their members are read
     * on first use.
     *
     * @throws dev.agentarena.junit.engine.config.ConfigurationException when a declared key is one a connector serves
     */
    synchronized void prepareDeclaredModels(ModelRegistry models) {
        if (declaredModels == null) {
            declaredModels = definition.declaredModels().isEmpty() ? DeclaredModels.none()
                    : DeclaredModels.of(definition.declaredModels(), instance, models);
        }
    }

    /**
     * The client of a model key: the eval's own {@code @EvalModel} member for a key it declares, else the run's
     * connector for the key.
     */
    ModelClient modelClient(String modelKey, ModelRegistry models) {
        prepareDeclaredModels(models);
        DeclaredModels declared;
        synchronized (this) {
            declared = declaredModels;
        }
        return declared.client(modelKey).orElseGet(() -> models.client(modelKey));
    }

    EvalDefinition definition() {
        return definition;
    }

    Object instance() {
        return instance;
    }

    /** Whether the scorer's nodes are selected (an IDE may run a single {@code @Scorer} method). */
    boolean includesScorer(String scorer) {
        return scorerFilter.test(scorer);
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
