package dev.agentarena.junit.engine.evaluation;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.lifecycle.EvalInstances;
import dev.agentarena.junit.engine.parameters.ArgumentResolver;

/**
 * Runs an eval's {@code @PreProcess} and {@code @PostProcess} hooks, in order, each on the output of the one before:
 * first those of the eval class, then those of each {@code @ProcessWith} class. A post-process hook that returns a
 * {@link ScoreResult} decides the case; the hooks after it do not run.
 *
 * <p>The text is bound by name ({@code prompt}, {@code output}) or, whatever its name, to the first {@code String}
 * parameter; {@link EvalCase}, {@link ScoringContext} and {@link TaskOutput} by type; {@code input}, {@code reference}
 * and {@code metadata} by name.
 */
final class EvalHooks {

    /** The output after post-processing, and a verdict override if a hook returned one. */
    record PostProcessed(String output, ScoreResult override, String overridingHook) {
    }

    private final List<Method> preRequest;
    private final List<Method> postProcess;
    private final Object evalInstance;
    private final EvalInstances instances;
    private final Map<Class<?>, Object> hookInstances = new ConcurrentHashMap<>();
    // each hook planned on its first call (its parameters, its step's name): once per eval, not per case
    private final Map<Method, Planned> preRequestPlans = new ConcurrentHashMap<>();
    private final Map<Method, Planned> postProcessPlans = new ConcurrentHashMap<>();

    /** A hook's parameter bindings and the name of its step in a case. */
    private record Planned(ArgumentResolver.Bound bound, String step) {
    }

    EvalHooks(EvalDefinition definition, Object evalInstance, EvalInstances instances) {
        this.preRequest = definition.preProcessHooks();
        this.postProcess = definition.postProcessHooks();
        this.evalInstance = evalInstance;
        this.instances = instances;
    }

    /** Whether the eval has no hook at all: nothing of the user's runs around a case's model call. */
    boolean none() {
        return preRequest.isEmpty() && postProcess.isEmpty();
    }

    /** Runs the pre-request hooks, each a step of the case: held to the hook time limit. */
    String beforeRequest(String prompt, EvalCase evalCase, CaseRun steps) throws Throwable {
        String current = prompt;
        for (Method hook : preRequest) {
            String text = current;
            Planned planned = preRequestPlans.computeIfAbsent(hook, method -> new Planned(
                    ArgumentResolver.PRE_REQUEST.bind(method), "@PreProcess hook " + method.getName() + "()"));
            Object returned = steps.step(TimeLimits.Kind.HOOK, planned.step(),
                    () -> invoke(hook, planned.bound(), text, evalCase, null, "prompt"));
            if (!(returned instanceof String)) {
                throw new IllegalStateException("@PreProcess hook " + hook.getName() + "() must return the prompt as a "
                        + "String, but returned " + (returned == null ? "null" : returned.getClass().getSimpleName()));
            }
            current = (String) returned;
        }
        return current;
    }

    /** Runs the post-process hooks, each a step of the case: held to the hook time limit. */
    PostProcessed afterOutput(String output, EvalCase evalCase, ScoringContext context, CaseRun steps)
            throws Throwable {
        String current = output;
        for (Method hook : postProcess) {
            String text = current;
            Planned planned = postProcessPlans.computeIfAbsent(hook, method -> new Planned(
                    ArgumentResolver.POST_PROCESS.bind(method), "@PostProcess hook " + method.getName() + "()"));
            Object returned = steps.step(TimeLimits.Kind.HOOK, planned.step(),
                    () -> invoke(hook, planned.bound(), text, evalCase, context, "output"));
            if (returned instanceof ScoreResult) {
                return new PostProcessed(current, (ScoreResult) returned, hook.getName());
            }
            if (!(returned instanceof String)) {
                throw new IllegalStateException("@PostProcess hook " + hook.getName() + "() must return the output as "
                        + "a String or a ScoreResult, but returned "
                        + (returned == null ? "null" : returned.getClass().getSimpleName()));
            }
            current = (String) returned;
        }
        return new PostProcessed(current, null, null);
    }

    private Object invoke(Method hook, ArgumentResolver.Bound bound, String text, EvalCase evalCase,
            ScoringContext context, String textName) {
        Object[] typed = context == null ? new Object[] {evalCase}
                : new Object[] {evalCase, context, context.output()};
        Object[] arguments = bound.resolve(typed, Map.of(), name -> {
            if (name.equals(textName)) {
                return text;
            }
            return switch (name) {
                case "input" -> evalCase.input();
                case "reference" -> evalCase.reference();
                case "metadata" -> evalCase.metadata();
                default -> null;
            };
        });
        return ReflectionSupport.invokeMethod(hook, target(hook), arguments);
    }

    private Object target(Method hook) {
        if (Modifier.isStatic(hook.getModifiers())) {
            return null;
        }
        Class<?> owner = hook.getDeclaringClass();
        if (evalInstance != null && owner.isInstance(evalInstance)) {
            return evalInstance;
        }
        return hookInstances.computeIfAbsent(owner, instances::createHelper);
    }
}
