package dev.agentarena.junit.engine.discovery;

import static org.junit.platform.engine.support.discovery.SelectorResolver.Resolution.match;
import static org.junit.platform.engine.support.discovery.SelectorResolver.Resolution.unresolved;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.MethodSelector;
import org.junit.platform.engine.support.discovery.SelectorResolver;

import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.PostProcess;
import dev.agentarena.junit.PreProcess;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.descriptor.ArenaEngineDescriptor;
import dev.agentarena.junit.engine.descriptor.EvalClassDescriptor;

/**
 * Class selectors select a whole eval; method selectors (an IDE's run icon) select a {@code @Scorer} method's scores,
 * an {@code @EvalDataset} method's dataset, or, for a {@code @Task} or a hook, the whole eval.
 */
final class EvalClassSelectorResolver implements SelectorResolver {

    private final Predicate<String> classNameFilter;
    private final ArenaEngineDescriptor engine;

    EvalClassSelectorResolver(Predicate<String> classNameFilter, ArenaEngineDescriptor engine) {
        this.classNameFilter = classNameFilter;
        this.engine = engine;
    }

    @Override
    public Resolution resolve(ClassSelector selector, Context context) {
        Class<?> evalClass = selector.getJavaClass();
        noteInnerEvals(evalClass);
        if (!EvalDefinition.isEval(evalClass) || !classNameFilter.test(evalClass.getName())) {
            return unresolved();
        }
        return EvalClasses.add(evalClass, context, engine).map(descriptor -> {
            descriptor.selectAll();
            return match(Match.exact(descriptor));
        }).orElse(unresolved());
    }

    /**
     * Notes the evals among a selected class's inner classes (non-static, at any depth): a build tool selects the
     * outer class only (Surefire leaves out {@code Outer$Inner}), so such an eval would be skipped without a word,
     * where JUnit Jupiter warns of an inner test class. {@link DeclarationIssues} reports each one not selected itself.
     */
    private void noteInnerEvals(Class<?> selected) {
        Class<?>[] members;
        try {
            members = selected.getDeclaredClasses();
        }
        catch (LinkageError | SecurityException e) {
            return; // a member that cannot load: not an eval the engine could run anyway
        }
        for (Class<?> member : members) {
            if (!Modifier.isStatic(member.getModifiers()) && EvalDefinition.isEval(member)) {
                engine.noteInnerEval(member);
            }
            noteInnerEvals(member);
        }
    }

    @Override
    public Resolution resolve(MethodSelector selector, Context context) {
        Class<?> evalClass = selector.getJavaClass();
        if (!EvalDefinition.isEval(evalClass)) {
            return unresolved();
        }
        Optional<Method> selected = method(selector, evalClass);
        if (selected.isEmpty()) {
            return unresolved();
        }
        Method method = selected.get();
        boolean scorer = AnnotationSupport.isAnnotated(method, Scorer.class);
        List<EvalDataset> datasets = AnnotationSupport.findRepeatableAnnotations(method, EvalDataset.class);
        boolean task = AnnotationSupport.isAnnotated(method, Task.class)
                || AnnotationSupport.isAnnotated(method, PreProcess.class)
                || AnnotationSupport.isAnnotated(method, PostProcess.class);
        if (!scorer && datasets.isEmpty() && !task) {
            return unresolved();
        }
        Optional<EvalClassDescriptor> added = EvalClasses.add(evalClass, context, engine);
        if (added.isEmpty()) {
            return unresolved();
        }
        EvalClassDescriptor descriptor = added.get();
        if (scorer) {
            String name = AnnotationSupport.findAnnotation(method, Scorer.class).map(Scorer::value)
                    .filter(value -> !value.isBlank()).orElse(method.getName());
            descriptor.selectScorer(name);
        }
        else if (!datasets.isEmpty()) {
            descriptor.selectDatasetsOf(method);
        }
        else {
            descriptor.selectAll();
        }
        return match(Match.exact(descriptor));
    }

    /**
     * The selected method. A selector written by hand often leaves out the parameter types
     * ({@code --select-method Class#concise} for {@code concise(String output)}), which JUnit resolves as a method
     * without parameters and fails with a stack trace: the eval's one method of that name that the engine runs
     * ({@code @Scorer}, {@code @EvalDataset}, {@code @Task} or a hook) is meant. Several such methods of one name stay
     * unresolved, which JUnit reports as an unresolved selector in one line.
     */
    private static Optional<Method> method(MethodSelector selector, Class<?> evalClass) {
        if (!selector.getParameterTypeNames().isEmpty()) {
            return Optional.of(selector.getJavaMethod());
        }
        List<Method> named = ReflectionSupport.findMethods(evalClass,
                method -> method.getName().equals(selector.getMethodName()) && runByTheEngine(method),
                HierarchyTraversalMode.TOP_DOWN);
        if (named.size() == 1) {
            return Optional.of(named.get(0));
        }
        return named.isEmpty() ? ReflectionSupport.findMethod(evalClass, selector.getMethodName())
                : Optional.empty();
    }

    private static boolean runByTheEngine(Method method) {
        return AnnotationSupport.isAnnotated(method, Scorer.class)
                || !AnnotationSupport.findRepeatableAnnotations(method, EvalDataset.class).isEmpty()
                || AnnotationSupport.isAnnotated(method, Task.class)
                || AnnotationSupport.isAnnotated(method, PreProcess.class)
                || AnnotationSupport.isAnnotated(method, PostProcess.class);
    }
}
