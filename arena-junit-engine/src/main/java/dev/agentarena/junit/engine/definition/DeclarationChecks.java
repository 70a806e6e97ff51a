package dev.agentarena.junit.engine.definition;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.engine.integration.EvalInstanceStrategies;
import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.parameters.ArgumentResolver;
import dev.agentarena.junit.engine.scoring.ScorerNames;

/**
 * The checks of an eval's declaration that need no dataset and no model: each finds what would otherwise fail every
 * case at run time, or worse, run with the wrong values (a parameter bound by guesswork), and says how to fix it.
 */
final class DeclarationChecks {

    private DeclarationChecks() {
    }

    /** A non-static inner class cannot be created by the engine: it needs an instance of its enclosing class. */
    static boolean isInner(Class<?> type) {
        return type.isMemberClass() && !Modifier.isStatic(type.getModifiers());
    }

    static void innerClass(Class<?> testClass, List<DeclarationProblem> problems) {
        if (isInner(testClass)) {
            problems.add(DeclarationProblem.ofClass(testClass.getName() + " is an inner class: the engine cannot "
                    + "create it without an instance of " + testClass.getEnclosingClass().getSimpleName()
                    + ". Declare it static (under Surefire, a nested class also needs an <excludes> override: see "
                    + "docs/guides/writing-evals.md) or move it to a file of its own."));
        }
    }

    /** Every parameter of every scorer, task and hook can be bound by type or by name. */
    static void parameters(List<Method> scorers, Method task, List<Method> preRequest, List<Method> postProcess,
            List<DeclarationProblem> problems) {
        for (Method scorer : scorers) {
            add(scorer, ArgumentResolver.SCORER.problems(scorer, false), problems);
        }
        if (task != null) {
            add(task, ArgumentResolver.TASK.problems(task, !preRequest.isEmpty()), problems);
        }
        preRequest.forEach(hook -> add(hook, ArgumentResolver.PRE_REQUEST.problems(hook, false), problems));
        postProcess.forEach(hook -> add(hook, ArgumentResolver.POST_PROCESS.problems(hook, false), problems));
    }

    private static void add(Method method, List<String> messages, List<DeclarationProblem> problems) {
        messages.forEach(message -> problems.add(new DeclarationProblem(message, method)));
    }

    /**
     * No {@code @Scorer} method takes the name of a scorer the engine has (builtin, catalogue, integration): the
     * method would shadow it without a word, as the {@code required_facts} example of the custom-scorers guide did.
     */
    static void scorerNames(List<Method> scorers, List<DeclarationProblem> problems) {
        for (Method scorer : scorers) {
            String name = EvalDefinition.scorerName(scorer);
            ScorerNames.takenBy(name).ifPresent(taken -> problems.add(new DeclarationProblem("@Scorer method "
                    + ArgumentResolver.describe(scorer) + " is named " + name + ", which is " + taken
                    + ": give it a name of its own (@Scorer(\"my_" + name + "\"))", scorer)));
        }
    }

    /**
     * The chat libraries the class names (a parameter or return type of its methods, an {@code @EvalModel} member's
     * type, a scorer a library brings) are in versions the engine serves: a library it cannot serve fails the class
     * once, with its version and the versions served, not each case with a linkage error. One problem per library,
     * at the first method that names it.
     *
     * @param typeProblem why a type's library cannot be served ({@code Integrations::unsupportedLibrary})
     * @param scorerProblem why a scorer's library cannot be served, by the scorer's name
     */
    static void libraryVersions(List<Method> methods, List<DeclaredModel> declared, List<String> scorerNames,
            Function<Class<?>, Optional<String>> typeProblem, Function<String, Optional<String>> scorerProblem,
            List<DeclarationProblem> problems) {
        Map<String, DeclarationProblem> byLibrary = new LinkedHashMap<>();
        for (Method method : methods) {
            List<Class<?>> types = new ArrayList<>(List.of(method.getParameterTypes()));
            types.add(method.getReturnType());
            for (Class<?> type : types) {
                typeProblem.apply(type).ifPresent(problem -> byLibrary.putIfAbsent(problem,
                        new DeclarationProblem(ArgumentResolver.describe(method) + " uses " + type.getName() + ": "
                                + problem, method)));
            }
        }
        for (DeclaredModel model : declared) {
            typeProblem.apply(model.type()).ifPresent(problem -> byLibrary.putIfAbsent(problem,
                    DeclarationProblem.ofClass("@EvalModel " + model.describe() + " of " + model.declaringClass()
                            .getName() + " is a " + model.type().getName() + ": " + problem)));
        }
        for (String scorer : scorerNames) {
            scorerProblem.apply(scorer).ifPresent(problem -> byLibrary.putIfAbsent(problem,
                    DeclarationProblem.ofClass("scorer " + scorer + ": " + problem)));
        }
        problems.addAll(byLibrary.values());
    }

    /** What each method returns is something the engine can use. */
    static void returnTypes(List<Method> scorers, Method task, List<Method> preRequest, List<Method> postProcess,
            List<DatasetSpec> datasets, List<DeclarationProblem> problems) {
        for (Method scorer : scorers) {
            if (!scorerReturn(scorer.getReturnType())) {
                problems.add(new DeclarationProblem("@Scorer method " + ArgumentResolver.describe(scorer) + " returns "
                        + scorer.getReturnType().getSimpleName() + ": return a number, a boolean, a ScoreResult, a "
                        + "List<ScoreResult>, a Map<String, Number>, or nothing (void, with assertions)", scorer));
            }
        }
        if (task != null && task.getReturnType() == void.class) {
            problems.add(new DeclarationProblem("@Task method " + ArgumentResolver.describe(task) + " returns nothing: "
                    + "return the output (a String, a TaskOutput, a Completion, or any object, rendered as JSON)",
                    task));
        }
        for (Method hook : preRequest) {
            if (!hook.getReturnType().isAssignableFrom(String.class)) {
                problems.add(new DeclarationProblem("@PreProcess hook " + ArgumentResolver.describe(hook) + " returns "
                        + hook.getReturnType().getSimpleName() + ": return the prompt to send, as a String", hook));
            }
        }
        for (Method hook : postProcess) {
            Class<?> type = hook.getReturnType();
            if (!type.isAssignableFrom(String.class) && !type.isAssignableFrom(ScoreResult.class)) {
                problems.add(new DeclarationProblem("@PostProcess hook " + ArgumentResolver.describe(hook) + " returns "
                        + type.getSimpleName() + ": return the output to score as a String, or a ScoreResult to "
                        + "decide the case", hook));
            }
        }
        for (DatasetSpec spec : datasets) {
            Method method = spec.method();
            if (method != null && spec.file() == null && !datasetReturn(method.getReturnType())) {
                problems.add(new DeclarationProblem("@EvalDataset method " + ArgumentResolver.describe(method)
                        + " returns " + method.getReturnType().getSimpleName() + ": return a Stream, Iterable, "
                        + "Iterator or array of EvalCase", method));
            }
        }
    }

    private static boolean scorerReturn(Class<?> type) {
        if (type == void.class || type == boolean.class || type.isPrimitive() && type != char.class) {
            return true;
        }
        return Number.class.isAssignableFrom(type) || type == Boolean.class
                || ScoreResult.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type)
                || Iterable.class.isAssignableFrom(type)
                // a supertype of what the engine accepts: Object, Serializable, Comparable, ...; decided per call
                || type.isAssignableFrom(ScoreResult.class) || type.isAssignableFrom(Double.class)
                || type.isAssignableFrom(List.class) || type.isAssignableFrom(Map.class)
                // a library's evaluation result, when the library is on the class path
                || Integrations.scoresAs(type);
    }

    private static boolean datasetReturn(Class<?> type) {
        return Stream.class.isAssignableFrom(type) || Iterable.class.isAssignableFrom(type)
                || Iterator.class.isAssignableFrom(type) || type.isArray() && !type.getComponentType().isPrimitive()
                || type.isAssignableFrom(Stream.class) || type.isAssignableFrom(List.class)
                || type.isAssignableFrom(Iterator.class);
    }

    /**
     * The eval class has the no-argument constructor its instance methods need, and so does every {@code @ProcessWith}
     * class with instance hooks; unless a framework creates them (Spring's TestContext framework for a class annotated
     * for it), which may inject constructor parameters.
     */
    static void constructors(Class<?> testClass, boolean needsInstance, List<Class<?>> hookClasses,
            List<Method> hooks, List<DeclarationProblem> problems) {
        if (!EvalInstanceStrategies.byConstructor(testClass)) {
            return;
        }
        if (needsInstance && !isInner(testClass) && !hasNoArgumentConstructor(testClass)) {
            problems.add(DeclarationProblem.ofClass(testClass.getName() + " needs a constructor without parameters: "
                    + "the engine creates one instance per run to call its non-static dataset, scorer, task and hook "
                    + "methods (or make those methods static; for constructor injection, annotate the class for "
                    + "Spring's TestContext framework, e.g. @SpringJUnitConfig or @SpringBootTest)"));
        }
        for (Class<?> hookClass : hookClasses) {
            if (hookClass.isAssignableFrom(testClass)) {
                continue;
            }
            boolean instanceHooks = hooks.stream().anyMatch(hook -> hook.getDeclaringClass().isAssignableFrom(hookClass)
                    && !Modifier.isStatic(hook.getModifiers()));
            if (instanceHooks && (isInner(hookClass) || !hasNoArgumentConstructor(hookClass)
                    || Modifier.isAbstract(hookClass.getModifiers()))) {
                problems.add(DeclarationProblem.ofClass("@ProcessWith class " + hookClass.getName() + " of "
                        + testClass.getName() + " needs a constructor without parameters (and must be concrete and "
                        + "not an inner class): the engine creates it to call its non-static hooks (or make them "
                        + "static)"));
            }
        }
    }

    private static boolean hasNoArgumentConstructor(Class<?> type) {
        try {
            type.getDeclaredConstructor();
            return true;
        }
        catch (NoSuchMethodException e) {
            return false;
        }
    }
}
