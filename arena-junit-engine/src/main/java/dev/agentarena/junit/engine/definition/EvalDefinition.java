package dev.agentarena.junit.engine.definition;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.redteam.RedTeam;
import dev.agentarena.junit.ProcessWith;
import dev.agentarena.junit.PostProcess;
import dev.agentarena.junit.PreProcess;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScorerOption;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.TaskConfiguration;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.scoring.ScorerNames;

/**
 * What an eval class declares, read from its annotations alone: cheap enough for discovery, which runs several
 * times per build. Problems are collected rather than thrown: the engine reports them as discovery issues, and the
 * class fails with them when it runs, as a test named {@code cannot run}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EvalDefinition {

    /** What follows the eval's name in the keys of its own scorer options. */
    private static final String SCORER_OPTIONS = ".scorers.options.";

    /** The model an eval runs against when nothing names one. */
    public static final String DEFAULT_MODEL = "sim_small";

    private final Class<?> testClass;
    private final String name;
    private final List<String> models;
    private final Map<String, TaskConfiguration> configurations;
    private final Map<String, String> configurationModels;
    private final List<DeclaredModel> declaredModels;
    private final List<DatasetSpec> datasets;
    private final List<Method> scorerMethods;
    private final Method task;
    private final List<String> defaultScorers;
    private final List<Method> preProcessHooks;
    private final List<Method> postProcessHooks;
    private final Map<String, Map<String, Object>> scorerOptions;
    private final boolean needsInstance;
    private final List<DeclarationProblem> problems;

    private EvalDefinition(Class<?> testClass, String name, List<String> models, Axis axis,
            List<DeclaredModel> declaredModels, List<DatasetSpec> datasets, List<Method> scorerMethods, Method task, List<String> defaultScorers,
            List<Method> preProcessHooks, List<Method> postProcessHooks,
            Map<String, Map<String, Object>> scorerOptions, List<DeclarationProblem> problems) {
        this.testClass = testClass;
        this.name = name;
        this.models = List.copyOf(models);
        this.configurations = axis.configurations();
        this.configurationModels = axis.models();
        this.declaredModels = List.copyOf(declaredModels);
        this.datasets = List.copyOf(datasets);
        this.scorerMethods = List.copyOf(scorerMethods);
        this.task = task;
        this.defaultScorers = List.copyOf(defaultScorers);
        this.preProcessHooks = List.copyOf(preProcessHooks);
        this.postProcessHooks = List.copyOf(postProcessHooks);
        this.scorerOptions = scorerOptions;
        this.needsInstance = needsInstance(testClass, scorerMethods, datasets, task, preProcessHooks,
                postProcessHooks, declaredModels);
        this.problems = Collections.unmodifiableList(problems);
    }

    /**
     * Whether the class is meant as an eval: concrete, with {@code @Eval} or an {@code @EvalDataset}. A non-static
     * inner class is one too, so that it fails saying why instead of being ignored without a word.
     */
    public static boolean isEval(Class<?> type) {
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers()) || type.isAnonymousClass()
                || type.isLocalClass() || type.isSynthetic() || type.isAnnotation() || type.isEnum()) {
            return false;
        }
        return AnnotationSupport.isAnnotated(type, Eval.class)
                || !AnnotationSupport.findRepeatableAnnotations(type, EvalDataset.class).isEmpty()
                || AnnotationSupport.isAnnotated(type, RedTeam.class)
                || !ReflectionSupport.findMethods(type, EvalDefinition::declaresDataset, HierarchyTraversalMode.TOP_DOWN)
                        .isEmpty();
    }

    private static boolean declaresDataset(Method method) {
        return !AnnotationSupport.findRepeatableAnnotations(method, EvalDataset.class).isEmpty();
    }

    /** Reads an eval class, checking scorer names against a discovery of its own. */
    public static EvalDefinition of(Class<?> testClass, ArenaConfiguration configuration) {
        return of(testClass, configuration, new ScorerNames());
    }

    /**
     * Reads an eval class and checks its declaration.
     *
     * @param scorerNames which scorer names the class can use (shared by the classes of one discovery)
     */
    public static EvalDefinition of(Class<?> testClass, ArenaConfiguration configuration, ScorerNames scorerNames) {
        return new Reading(testClass, configuration, scorerNames).definition();
    }

    /**
     * One reading of an eval class, step by step: its name, models, datasets, scorer methods, task, default scorers,
     * hooks and scorer options, each checked as it is read. Problems are collected in the order the steps find them:
     * the method-level ones ({@link DeclarationChecks}, {@code @EvalModel} members) first, then those of the class.
     */
    private static final class Reading {

        private final Class<?> testClass;
        private final ArenaConfiguration configuration;
        private final ScorerNames scorerNames;
        /** Problems of the class as a whole, added to {@link #declaration} once every step has run. */
        private final List<String> problems = new ArrayList<>();
        /** Problems that name the method or member at fault. */
        private final List<DeclarationProblem> declaration = new ArrayList<>();

        Reading(Class<?> testClass, ArenaConfiguration configuration, ScorerNames scorerNames) {
            this.testClass = testClass;
            this.configuration = configuration;
            this.scorerNames = scorerNames;
        }

        EvalDefinition definition() {
            DeclarationChecks.innerClass(testClass, declaration);
            String name = evalName();
            List<DeclaredModel> declared = DeclaredModel.findAll(testClass, declaration);
            Map<String, TaskConfiguration> configurations = DeclaredConfigurations.read(testClass, name, configuration,
                    problems);
            Axis axis = configurations.isEmpty() ? Axis.MODELS : configurationAxis(configurations, declared);
            List<String> models = configurations.isEmpty() ? models(declared) : List.copyOf(configurations.keySet());
            List<DatasetSpec> datasets = datasets();
            List<Method> scorers = scorerMethods();
            Method task = task();
            checkConfigurationTask(configurations, task);
            List<String> defaultScorers = defaultScorers();
            List<Class<?>> hookClasses = hookClasses();
            List<Method> preRequest = hooks(hookClasses, PreProcess.class);
            List<Method> postProcess = hooks(hookClasses, PostProcess.class);
            checkMethods(scorers, task, preRequest, postProcess, datasets, declared, hookClasses);
            checkLibraryVersions(scorers, task, preRequest, postProcess, declared, defaultScorers);
            checkDefaultScorers(defaultScorers);
            Map<String, Map<String, Object>> scorerOptions = annotatedOptions(testClass, problems);
            checkOptionScorers(name, scorerOptions, scorers);
            problems.forEach(message -> declaration.add(DeclarationProblem.ofClass(message)));
            return new EvalDefinition(testClass, name, models, axis, declared, datasets, scorers, task, defaultScorers,
                    preRequest, postProcess, scorerOptions, declaration);
        }

        /** {@code @Eval("...")}, or the class's simple name. */
        private String evalName() {
            return AnnotationSupport.findAnnotation(testClass, Eval.class).map(Eval::value)
                    .filter(value -> !value.isBlank()).orElse(testClass.getSimpleName());
        }

        /**
         * The model keys, each once and trimmed: {@code arena.models} replaces everything; else {@code @UseModels} (or
         * the default model when the class declares none itself), then the models the class declares
         * ({@code @EvalModel}).
         */
        private List<String> models(List<DeclaredModel> declared) {
            List<String> configured;
            try {
                configured = configuration == null ? List.of() : configuration.getExplicitList(Constants.MODELS);
            }
            catch (ConfigurationException e) {
                // an explicitly empty arena.models must not fall back to @UseModels silently
                problems.add(e.getMessage());
                return List.of();
            }
            List<String> models = configured.isEmpty() ? annotatedModels(declared) : configured;
            Set<String> unique = new LinkedHashSet<>();
            for (String model : models) {
                if (model.isBlank()) {
                    problems.add("@UseModels of " + testClass.getName() + " names a blank model key");
                }
                else if (!unique.add(model.trim())) {
                    problems.add("model '" + model + "' is listed twice for " + testClass.getName());
                }
            }
            if (unique.isEmpty()) {
                problems.add("no model is configured for " + testClass.getName() + ": use @UseModels or arena.models");
            }
            return new ArrayList<>(unique);
        }

        /**
         * The configurations and the model each calls: its own {@code model} setting, else the eval's one model
         * ({@code arena.models}, else {@code @UseModels} and {@code @EvalModel}), else none. Naming several models is
         * a problem unless every configuration names its own.
         */
        private Axis configurationAxis(Map<String, TaskConfiguration> configurations, List<DeclaredModel> declared) {
            List<String> named;
            try {
                named = configuration == null ? List.of() : configuration.getExplicitList(Constants.MODELS);
            }
            catch (ConfigurationException e) {
                problems.add(e.getMessage());
                named = List.of();
            }
            Set<String> models = new LinkedHashSet<>();
            if (named.isEmpty()) {
                AnnotationSupport.findAnnotation(testClass, UseModels.class)
                        .ifPresent(use -> List.of(use.value()).forEach(key -> models.add(key.strip())));
                declared.forEach(model -> models.add(model.key()));
            }
            else {
                named.forEach(key -> models.add(key.strip()));
            }
            models.removeIf(String::isBlank);
            Map<String, String> byConfiguration = new LinkedHashMap<>();
            boolean needsEvalModel = false;
            for (TaskConfiguration each : configurations.values()) {
                Optional<String> own = each.find(DeclaredConfigurations.MODEL_SETTING).filter(key -> !key.isBlank());
                needsEvalModel |= own.isEmpty();
                own.or(() -> models.stream().findFirst()).ifPresent(key -> byConfiguration.put(each.name(), key));
            }
            if (needsEvalModel && models.size() > 1) {
                problems.add(testClass.getName() + " compares configurations, so its configurations run on one model, "
                        + "but it names " + models.size() + " (" + String.join(", ", models) + "): name one with "
                        + "@UseModels or " + Constants.MODELS + ", or give each configuration its own with the "
                        + "setting " + DeclaredConfigurations.MODEL_SETTING + "=<key>");
            }
            return new Axis(configurations, byConfiguration);
        }

        /** {@code @UseModels} (or the default model when the class declares none), then the class's own models. */
        private List<String> annotatedModels(List<DeclaredModel> declared) {
            Optional<UseModels> annotated = AnnotationSupport.findAnnotation(testClass, UseModels.class);
            List<String> models = new ArrayList<>(annotated.map(m -> List.of(m.value()))
                    .orElse(declared.isEmpty() ? List.of(DEFAULT_MODEL) : List.of()));
            for (DeclaredModel model : declared) {
                if (models.stream().noneMatch(key -> key.trim().equals(model.key()))) {
                    models.add(model.key());
                }
            }
            return models;
        }

        /**
         * The datasets of the class's {@code @EvalDataset}s, then of its {@code @EvalDataset} methods, then its
         * {@code @RedTeam}'s attacks, by name.
         */
        private List<DatasetSpec> datasets() {
            List<DatasetSpec> datasets = new ArrayList<>();
            for (EvalDataset dataset : AnnotationSupport.findRepeatableAnnotations(testClass, EvalDataset.class)) {
                if (dataset.value().isBlank()) {
                    problems.add("@EvalDataset on class " + testClass.getName() + " must name a dataset file");
                    continue;
                }
                datasets.add(new DatasetSpec(datasetName(dataset.name(), baseName(dataset.value())), dataset.value(),
                        null));
            }
            for (Method method : sorted(ReflectionSupport.findMethods(testClass, EvalDefinition::declaresDataset,
                    HierarchyTraversalMode.TOP_DOWN))) {
                for (EvalDataset dataset : AnnotationSupport.findRepeatableAnnotations(method, EvalDataset.class)) {
                    if (dataset.value().isBlank() && method.getParameterCount() > 0) {
                        problems.add("@EvalDataset method " + method.getName() + "() must not declare parameters");
                    }
                    String fallback = dataset.value().isBlank() ? method.getName() : baseName(dataset.value());
                    datasets.add(new DatasetSpec(datasetName(dataset.name(), fallback),
                            dataset.value().isBlank() ? null : dataset.value(), method));
                }
            }
            AnnotationSupport.findAnnotation(testClass, RedTeam.class).ifPresent(redTeam -> datasets.add(
                    new DatasetSpec(datasetName(redTeam.name(), "redteam"), null, null, redTeam)));
            List<DatasetSpec> unique = uniqueNames(datasets, problems);
            if (unique.isEmpty()) {
                problems.add(testClass.getName()
                        + " has no dataset: add an @EvalDataset method, @EvalDataset(\"file\") or @RedTeam");
            }
            return unique;
        }

        /** The {@code @Scorer} methods, by name. */
        private List<Method> scorerMethods() {
            return sorted(ReflectionSupport.findMethods(testClass,
                    method -> AnnotationSupport.isAnnotated(method, Scorer.class), HierarchyTraversalMode.TOP_DOWN));
        }

        /** The {@code @Task} method, or {@code null}; more than one is a problem, and the first is kept. */
        private Method task() {
            List<Method> tasks = ReflectionSupport.findMethods(testClass,
                    method -> AnnotationSupport.isAnnotated(method, Task.class), HierarchyTraversalMode.TOP_DOWN);
            if (tasks.size() > 1) {
                problems.add(testClass.getName() + " declares " + tasks.size()
                        + " @Task methods; declare at most one");
            }
            return tasks.isEmpty() ? null : tasks.get(0);
        }

        /** Configurations need a task to run them, and a task's configuration needs configurations. */
        private void checkConfigurationTask(Map<String, TaskConfiguration> configurations, Method task) {
            if (!configurations.isEmpty() && task == null) {
                problems.add(testClass.getName() + " declares @EvalConfigurations but no @Task to run them; add a "
                        + "@Task with a TaskConfiguration parameter");
            }
            if (configurations.isEmpty() && task != null
                    && List.of(task.getParameterTypes()).contains(TaskConfiguration.class)) {
                problems.add("@Task " + task.getName() + "() of " + testClass.getName() + " takes a TaskConfiguration, "
                        + "but the class declares no @EvalConfiguration");
            }
        }

        /** {@code @Eval(scorers = ...)}, else {@code arena.scorers.default}. */
        private List<String> defaultScorers() {
            List<String> declared = AnnotationSupport.findAnnotation(testClass, Eval.class)
                    .map(eval -> List.of(eval.scorers())).orElse(List.of());
            return declared.isEmpty() && configuration != null ? configuration.getList(Constants.SCORERS_DEFAULT)
                    : declared;
        }

        /** The class itself, then the classes its {@code @ProcessWith} name. */
        private List<Class<?>> hookClasses() {
            List<Class<?>> hookClasses = new ArrayList<>();
            hookClasses.add(testClass);
            AnnotationSupport.findAnnotation(testClass, ProcessWith.class)
                    .ifPresent(h -> hookClasses.addAll(List.of(h.value())));
            return hookClasses;
        }

        /** The hooks of one kind, class by class, each class's by name. */
        private static List<Method> hooks(List<Class<?>> hookClasses, Class<? extends Annotation> kind) {
            List<Method> hooks = new ArrayList<>();
            for (Class<?> hookClass : hookClasses) {
                hooks.addAll(sorted(ReflectionSupport.findMethods(hookClass,
                        m -> AnnotationSupport.isAnnotated(m, kind), HierarchyTraversalMode.TOP_DOWN)));
            }
            return hooks;
        }

        /** The parameters and return types of the methods, and the constructors an instance would need. */
        private void checkMethods(List<Method> scorers, Method task, List<Method> preRequest,
                List<Method> postProcess, List<DatasetSpec> datasets, List<DeclaredModel> declared,
                List<Class<?>> hookClasses) {
            DeclarationChecks.parameters(scorers, task, preRequest, postProcess, declaration);
            DeclarationChecks.returnTypes(scorers, task, preRequest, postProcess, datasets, declaration);
            DeclarationChecks.scorerNames(scorers, declaration);
            List<Method> hooks = new ArrayList<>(preRequest);
            hooks.addAll(postProcess);
            DeclarationChecks.constructors(testClass, needsInstance(testClass, scorers, datasets, task, preRequest,
                    postProcess, declared), hookClasses, hooks, declaration);
        }

        /** The chat libraries the class names are in versions the engine serves. */
        private void checkLibraryVersions(List<Method> scorers, Method task, List<Method> preRequest,
                List<Method> postProcess, List<DeclaredModel> declared, List<String> defaultScorers) {
            List<Method> methods = new ArrayList<>(scorers);
            if (task != null) {
                methods.add(task);
            }
            methods.addAll(preRequest);
            methods.addAll(postProcess);
            DeclarationChecks.libraryVersions(methods, declared, defaultScorers, Integrations::unsupportedLibrary,
                    Integrations::unsupportedLibrary, declaration);
        }

        /** Every default scorer must be one the class can use. */
        private void checkDefaultScorers(List<String> defaultScorers) {
            for (String scorer : defaultScorers) {
                scorerNames.unknown(testClass, scorer).ifPresent(unknown -> problems.add(testClass.getSimpleName()
                        + ": " + unknown));
            }
        }

        /**
         * Every scorer that options are given for ({@code @ScorerOption}, {@code arena.evals.<eval>.scorers.options})
         * must be one of the class's {@code @Scorer} methods or one it can use.
         */
        private void checkOptionScorers(String name, Map<String, Map<String, Object>> scorerOptions,
                List<Method> scorers) {
            Set<String> optionScorers = new LinkedHashSet<>(scorerOptions.keySet());
            if (configuration != null) {
                optionScorers.addAll(configuration.namesBelow(evalOptionsPrefix(name)));
            }
            Set<String> methodScorers = scorers.stream().map(EvalDefinition::scorerName)
                    .collect(Collectors.toCollection(LinkedHashSet::new));
            for (String scorer : optionScorers) {
                if (!methodScorers.contains(scorer)) {
                    scorerNames.unknown(testClass, scorer).ifPresent(unknown -> problems.add(
                            testClass.getSimpleName() + ": scorer options name scorer '" + scorer
                                    + "', which this eval cannot use. " + unknown));
                }
            }
        }
    }

    /**
     * What an eval compares: its models (no configurations), or its configurations, each with the model it calls if
     * it has one.
     */
    private record Axis(Map<String, TaskConfiguration> configurations, Map<String, String> models) {

        static final Axis MODELS = new Axis(Map.of(), Map.of());

        Axis {
            configurations = Collections.unmodifiableMap(new LinkedHashMap<>(configurations));
            models = Map.copyOf(models);
        }
    }

    /**
     * The prefix of an eval's own scorer options in the configuration:
     * {@code arena.evals.<eval>.scorers.options.}, followed by {@code <scorer>.<option>}.
     */
    public static String evalOptionsPrefix(String evalName) {
        return Constants.EVALS_PREFIX + evalName + SCORER_OPTIONS;
    }

    /** The name a {@code @Scorer} method's scores are reported under, and its options are read by. */
    public static String scorerName(Method method) {
        return AnnotationSupport.findAnnotation(method, Scorer.class).map(Scorer::value)
                .filter(value -> !value.isBlank()).orElse(method.getName());
    }

    /** The {@code @ScorerOption}s of the class, by scorer and option: text, or a list of text. */
    private static Map<String, Map<String, Object>> annotatedOptions(Class<?> testClass, List<String> problems) {
        Map<String, Map<String, Object>> options = new LinkedHashMap<>();
        for (ScorerOption option : AnnotationSupport.findRepeatableAnnotations(testClass, ScorerOption.class)) {
            String where = "@ScorerOption(scorer = \"" + option.scorer() + "\", name = \"" + option.name()
                    + "\") on " + testClass.getName();
            if (option.scorer().isBlank() || option.name().isBlank()) {
                problems.add(where + " needs a scorer and an option name");
                continue;
            }
            if (option.value().length == 0) {
                problems.add(where + " needs a value");
                continue;
            }
            Map<String, Object> values = options.computeIfAbsent(option.scorer().strip(), s -> new LinkedHashMap<>());
            Object value = option.value().length == 1 ? option.value()[0] : List.of(option.value());
            if (values.put(option.name().strip(), value) != null) {
                problems.add(where + " is given twice");
            }
        }
        options.replaceAll((scorer, values) -> Collections.unmodifiableMap(values));
        return Collections.unmodifiableMap(options);
    }

    /**
     * Whether a non-static method of the class itself must be called, or a non-static {@code @EvalModel} member read:
     * then the engine creates an instance.
     */
    private static boolean needsInstance(Class<?> testClass, List<Method> scorers, List<DatasetSpec> datasets,
            Method task, List<Method> preRequest, List<Method> postProcess, List<DeclaredModel> declaredModels) {
        List<Method> methods = new ArrayList<>(scorers);
        datasets.forEach(spec -> {
            if (spec.method() != null && spec.file() == null) {
                methods.add(spec.method());
            }
        });
        if (task != null) {
            methods.add(task);
        }
        methods.addAll(preRequest);
        methods.addAll(postProcess);
        return methods.stream().anyMatch(m -> !Modifier.isStatic(m.getModifiers())
                && m.getDeclaringClass().isAssignableFrom(testClass))
                || declaredModels.stream().anyMatch(DeclaredModel::needsInstance);
    }

    private static List<DatasetSpec> uniqueNames(List<DatasetSpec> datasets, List<String> problems) {
        Set<String> seen = new LinkedHashSet<>();
        List<DatasetSpec> result = new ArrayList<>();
        for (DatasetSpec spec : datasets) {
            if (!seen.add(spec.name())) {
                problems.add("two datasets are named '" + spec.name() + "'; give one a name with @EvalDataset(name = ...)");
                continue;
            }
            result.add(spec);
        }
        return result;
    }

    private static String datasetName(String explicit, String fallback) {
        return explicit.isBlank() ? fallback : explicit;
    }

    private static String baseName(String file) {
        String base = file.replace('\\', '/');
        base = base.substring(base.lastIndexOf('/') + 1);
        int dot = base.indexOf('.');
        return dot > 0 ? base.substring(0, dot) : base;
    }

    private static List<Method> sorted(List<Method> methods) {
        List<Method> copy = new ArrayList<>(methods);
        copy.sort(Comparator.comparing(Method::getName).thenComparing(Method::toGenericString));
        return copy;
    }

    /** The eval class. */
    public Class<?> testClass() {
        return testClass;
    }

    /** The eval's name: {@code @Eval("...")} or the class's simple name. */
    public String name() {
        return name;
    }

    /**
     * What the eval compares, in order: its model keys, or the names of its configurations when it declares some
     * ({@link #comparesConfigurations()}). Each is a container of the test tree and the {@code model} of its results.
     */
    public List<String> models() {
        return models;
    }

    /** Whether the eval compares {@code @EvalConfiguration}s rather than models. */
    public boolean comparesConfigurations() {
        return !configurations.isEmpty();
    }

    /** The configuration of one of {@link #models()}; empty for a model. */
    public Optional<TaskConfiguration> configuration(String key) {
        return Optional.ofNullable(configurations.get(key));
    }

    /**
     * The key of the model that one of {@link #models()} calls: a model's own key, or the model of a configuration;
     * empty for a configuration that runs on no model.
     */
    public Optional<String> modelOf(String key) {
        return configurations.containsKey(key) ? Optional.ofNullable(configurationModels.get(key))
                : Optional.of(key);
    }

    /** The models the class supplies itself ({@code @EvalModel}), by key; {@code arena.models} may leave them out. */
    public List<DeclaredModel> declaredModels() {
        return declaredModels;
    }

    /** Datasets, in order. */
    public List<DatasetSpec> datasets() {
        return datasets;
    }

    /** {@code @Scorer} methods, by name. */
    public List<Method> scorerMethods() {
        return scorerMethods;
    }

    /** The {@code @Task} method, or {@code null} to send each input to the model. */
    public Method task() {
        return task;
    }

    /** Names of the scorers that grade cases without an {@code eval_type}. */
    public List<String> defaultScorers() {
        return defaultScorers;
    }

    /** {@code @PreProcess} hooks, in the order they run. */
    public List<Method> preProcessHooks() {
        return preProcessHooks;
    }

    /** {@code @PostProcess} hooks, in the order they run. */
    public List<Method> postProcessHooks() {
        return postProcessHooks;
    }

    /**
     * The eval's {@code @ScorerOption}s, by scorer and option name: a {@code String}, or a {@code List<String>} for
     * several values. Inherited from superclasses.
     */
    public Map<String, Map<String, Object>> scorerOptions() {
        return scorerOptions;
    }

    /**
     * Whether an instance of the class is needed: a dataset, scorer, task or hook method of it is not static, or an
     * {@code @EvalModel} member.
     */
    public boolean needsInstance() {
        return needsInstance;
    }

    /** What is wrong with the declaration, each with the method at fault: discovery issues, and why it cannot run. */
    public List<DeclarationProblem> declarationProblems() {
        return problems;
    }

    /** The messages of {@link #declarationProblems()}. */
    public List<String> problems() {
        return problems.stream().map(DeclarationProblem::message).collect(Collectors.toUnmodifiableList());
    }
}
