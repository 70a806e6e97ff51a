package dev.agentarena.junit.engine.evaluation;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.ArrayList;
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
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Message;
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
        if (!evalCase.turns().isEmpty()) {
            return conversation(evalCase, model);
        }
        return runOnce(evalCase, prompt, model);
    }

    /**
     * A scripted conversation: each user turn in order, after the answer to the one before. Without a task the
     * engine holds the conversation and sends it whole each time; a task is called once per turn with the turn as
     * its input, and keeps the conversation itself (an AI service's chat memory), as it would in production. The
     * output is the last turn's; every turn's steps are in the trajectory under their turn.
     */
    private TaskOutput conversation(EvalCase evalCase, ModelHandle model) {
        List<Message> messages = new ArrayList<>();
        TaskOutput last = null;
        List<ToolCall> calls = new ArrayList<>();
        Map<String, Double> metrics = new LinkedHashMap<>();
        int turn = 0;
        for (String userTurn : evalCase.turns()) {
            model.startTurn(turn++);
            if (task == null) {
                messages.add(Message.user(userTurn));
                Completion completion = model.complete(ModelRequest.ofMessages(messages));
                messages.add(Message.assistant(completion.text()));
                last = TaskOutput.of(completion.text()).withToolCalls(completion.toolCalls());
            }
            else {
                last = runOnce(evalCase, userTurn, model);
            }
            calls.addAll(last.toolCalls());
            metrics.putAll(last.metrics());
        }
        TaskOutput output = last.withToolCalls(calls);
        for (Map.Entry<String, Double> metric : metrics.entrySet()) {
            output = output.withMetric(metric.getKey(), metric.getValue());
        }
        return output.withMetric("turns", evalCase.turns().size());
    }

    private TaskOutput runOnce(EvalCase evalCase, String prompt, ModelHandle model) {
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
        // a scripted conversation's turn is the task's input
        byName.put("input", evalCase.turns().isEmpty() ? evalCase.input() : prompt);
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
