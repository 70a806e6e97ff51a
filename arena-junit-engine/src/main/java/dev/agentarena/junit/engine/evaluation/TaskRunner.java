package dev.agentarena.junit.engine.evaluation;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.lifecycle.CaseCallbacks;
import dev.agentarena.junit.engine.models.CaseModelScope;
import dev.agentarena.junit.engine.parameters.ArgumentResolver;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.model.ModelRequest;

/**
 * Produces one case's output: the user's {@code @Task} method, between the {@link CaseCallbacks} around a task and
 * within the case's {@link CaseModelScope}, or by default the prompt sent to the model.
 */
final class TaskRunner {

    private final Method task;
    private final Object evalInstance;
    private final CaseCallbacks callbacks;

    TaskRunner(Method task, Object evalInstance, CaseCallbacks callbacks) {
        this.task = task;
        this.evalInstance = evalInstance;
        this.callbacks = callbacks;
    }

    /** How messages name the task: {@code @Task method()}, or {@code the call to the model}. */
    String describe() {
        return task == null ? "the call to the model" : "@Task " + task.getName() + "()";
    }

    TaskOutput run(EvalCase evalCase, String prompt, ModelHandle model) {
        if (task == null) {
            Completion completion = model.complete(ModelRequest.ofPrompt(prompt));
            return TaskOutput.of(completion.text()).withToolCalls(completion.toolCalls());
        }
        Map<Class<?>, Object> byType = new LinkedHashMap<>();
        byType.put(EvalCase.class, evalCase);
        byType.put(Model.class, model);
        // a LangChain4j or Spring AI chat model over the same handle, for AI services the task builds
        byType.putAll(Integrations.taskParameters(task, model));
        Map<String, Object> byName = new LinkedHashMap<>();
        byName.put("input", evalCase.input());
        byName.put("prompt", prompt);
        byName.put("metadata", evalCase.metadata());
        Object[] arguments = ArgumentResolver.TASK.resolve(task, byType, byName);
        Object target = Modifier.isStatic(task.getModifiers()) ? null : evalInstance;
        Object returned;
        // the application's chat model beans, when routed (@RouteChatModelsToArena), call this case's model
        try (CaseModelScope scope = CaseModelScope.open(model)) {
            returned = invoke(target, arguments);
        }
        if (returned instanceof TaskOutput) {
            return (TaskOutput) returned;
        }
        if (returned instanceof Completion completion) {
            return TaskOutput.of(completion.text()).withToolCalls(completion.toolCalls());
        }
        if (returned == null) {
            throw new IllegalStateException("@Task " + task.getName() + "() returned null for case '" + evalCase.id()
                    + "'; return the output, or throw to report an error");
        }
        return TaskOutput.of(Json.text(returned));
    }

    private Object invoke(Object target, Object[] arguments) {
        Throwable error = null;
        try {
            callbacks.beforeTask();
            return ReflectionSupport.invokeMethod(task, target, arguments);
        }
        catch (Throwable t) {
            error = t;
            throw t;
        }
        finally {
            afterTask(error);
        }
    }

    private void afterTask(Throwable error) {
        try {
            callbacks.afterTask(error);
        }
        catch (RuntimeException e) {
            if (error == null) {
                throw e;
            }
            error.addSuppressed(e);
        }
    }
}
