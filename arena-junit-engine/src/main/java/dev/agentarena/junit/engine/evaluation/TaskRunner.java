package dev.agentarena.junit.engine.evaluation;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.TaskConfiguration;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.evaluation.agents.Conversations;
import dev.agentarena.junit.engine.evaluation.agents.ModelHandle;
import dev.agentarena.junit.engine.evaluation.agents.UserModel;
import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.integration.opentelemetry.CaseSpans;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.lifecycle.CaseCallbacks;
import dev.agentarena.junit.engine.models.AgentFailure;
import dev.agentarena.junit.engine.models.CapturedRetrieval;
import dev.agentarena.junit.engine.models.CaseModelScope;
import dev.agentarena.junit.engine.parameters.ArgumentResolver;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.RetrievedPassage;

/**
 * Produces one case's output: the user's {@code @Task} method, between the {@link CaseCallbacks} around a task and
 * within the case's {@link CaseModelScope}, or by default the prompt sent to the model; for a conversation case, once
 * per turn of its loop ({@link Conversations}), its user turns scripted or written by a simulated user
 * ({@link UserModel}).
 */
final class TaskRunner {

    /** How many characters of the case id a conversation id keeps readable. */
    private static final int ID_PREFIX_LENGTH = 48;

    private final Method task;
    private final Object evalInstance;
    private final CaseCallbacks callbacks;
    /** How messages name the task: asked for every case, as the name of its step. */
    private final String description;
    private final String evalName;
    private final Function<String, Optional<TaskConfiguration>> configurations;
    /** Whether the task returns a {@code List} (or another collection) of {@link RetrievedPassage}s. */
    private final boolean returnsPassages;
    /** How many of the application's spans a case keeps at most; 0 when none are captured. */
    private final int maxSpans;

    /**
     * @param configurations the configuration of a model key (of the eval's compared configurations), or empty
     * @param maxSpans how many of the application's spans a case keeps at most; 0 when none are captured
     */
    TaskRunner(Method task, Object evalInstance, CaseCallbacks callbacks, String evalName,
            Function<String, Optional<TaskConfiguration>> configurations, int maxSpans) {
        this.task = task;
        this.maxSpans = maxSpans;
        this.configurations = configurations;
        this.returnsPassages = task != null && returnsPassages(task);
        this.evalInstance = evalInstance;
        this.callbacks = callbacks;
        this.evalName = evalName;
        this.description = task == null ? "the call to the model" : "@Task " + task.getName() + "()";
    }

    /**
     * The identity of one run of a case, which a task binds as {@code conversationId} to key its chat memory on:
     * the case id (characters other than letters, digits, {@code .}, {@code _} and {@code -} as {@code _}, at most
     * {@value #ID_PREFIX_LENGTH} of them), a dash and 16 hex digits of a SHA-256 over eval, model, case and repeat.
     * Distinct per eval, model, case and repeat, the same on every run (so a recording that holds it replays), and
     * safe as a key or a file name whatever the case id holds.
     */
    static String conversationId(String eval, String model, String caseId, int repeat) {
        // cut before replacing: a case id of a megabyte costs no more than a short one
        String readable = caseId.substring(0, Math.min(caseId.length(), ID_PREFIX_LENGTH))
                .replaceAll("[^A-Za-z0-9._-]", "_");
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(String.join("\0", eval, model, caseId,
                    Integer.toString(repeat)).getBytes(StandardCharsets.UTF_8));
            return readable + "-" + HexFormat.of().formatHex(digest, 0, 8);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static boolean returnsPassages(Method task) {
        return task.getGenericReturnType() instanceof ParameterizedType type
                && type.getRawType() instanceof Class<?> raw && Collection.class.isAssignableFrom(raw)
                && type.getActualTypeArguments()[0] == RetrievedPassage.class;
    }

    /** How messages name the task: {@code @Task method()}, or {@code the call to the model}. */
    String describe() {
        return description;
    }

    /**
     * @param user the model that plays the case's simulated user, or {@code null} for a case without one
     */
    TaskOutput run(EvalCase evalCase, String prompt, ModelHandle model, UserModel user) {
        TaskOutput output;
        // the spans the application emits through OpenTelemetry while the case runs, on any thread of the case
        CaseSpans spans = CaseSpans.open(maxSpans);
        try {
            if (!evalCase.turns().isEmpty()) {
                output = Conversations.scripted(evalCase, model, turnOf(evalCase, model));
            }
            else if (evalCase.simulatedUser().isPresent() && user != null) {
                output = Conversations.simulated(evalCase, evalCase.simulatedUser().get(), model, user,
                        turnOf(evalCase, model));
            }
            else {
                output = runOnce(evalCase, prompt, model);
            }
        }
        finally {
            spans.close();
        }
        output = spans.applyTo(output);
        // recorded with the case's model calls; on a replay, the task retrieved again and must have found the same
        model.tools().retrieved(output.retrieved());
        return output;
    }

    /** The task's answer to one turn of a conversation, or {@code null} without a task (the engine holds it). */
    private Conversations.TaskTurn turnOf(EvalCase evalCase, ModelHandle model) {
        return task == null ? null : userTurn -> runOnce(evalCase, userTurn, model);
    }

    private TaskOutput runOnce(EvalCase evalCase, String prompt, ModelHandle model) {
        if (task == null) {
            Completion completion = model.complete(ModelRequest.ofPrompt(prompt));
            TaskOutput output = TaskOutput.of(completion.text());
            // most completions call no tool: no second copy of the output to replace none with none
            return completion.toolCalls().isEmpty() ? output : output.withToolCalls(completion.toolCalls());
        }
        Map<Class<?>, Object> byType = new LinkedHashMap<>();
        byType.put(EvalCase.class, evalCase);
        byType.put(Model.class, model);
        configurations.apply(model.key()).ifPresent(configuration -> byType.put(TaskConfiguration.class, configuration));
        // a LangChain4j or Spring AI chat model over the same handle, for AI services the task builds
        byType.putAll(Integrations.taskParameters(task, model));
        Map<String, Object> byName = new LinkedHashMap<>();
        // a conversation's turn (scripted, or a simulated user's) is the task's input
        boolean conversation = !evalCase.turns().isEmpty() || evalCase.simulatedUser().isPresent();
        byName.put("input", conversation ? prompt : evalCase.input());
        byName.put("prompt", prompt);
        byName.put("metadata", evalCase.metadata());
        byName.put("conversationId", conversationId(evalName, model.key(), evalCase.id(), model.repeat()));
        Object[] arguments = ArgumentResolver.TASK.resolve(task, byType, byName);
        Object target = Modifier.isStatic(task.getModifiers()) ? null : evalInstance;
        Object returned;
        CapturedRetrieval captured = new CapturedRetrieval();
        // the application's chat model beans, when routed (@RouteChatModelsToArena), call this case's model,
        // its MCP tool servers (integration/mcp) record or replay into this case's recording, and what its chat
        // libraries retrieve (a ChatClient's RAG advisors, LangChain4j retriever beans) is captured for this case
        try (CaseModelScope scope = CaseModelScope.open(model, model.tools(), captured)) {
            returned = invoke(target, arguments);
        }
        TaskOutput output = output(evalCase, model, returned);
        // the task's own passages win: it gave them explicitly, and may have chosen among several retrievals
        if (output.retrieved().isEmpty()) {
            List<RetrievedPassage> passages = captured.passages();
            if (!passages.isEmpty()) {
                output = output.withRetrieved(passages);
            }
        }
        return output;
    }

    /**
     * What the task returned as its output: a {@link TaskOutput} as it is, a {@link Completion}'s text and tool calls,
     * a chat library's answer with what it retrieved (an AI service's {@code Result}, a Spring AI
     * {@code ChatResponse} or {@code ChatClientResponse}), anything else as text (JSON for a structured value).
     */
    private TaskOutput output(EvalCase evalCase, ModelHandle model, Object returned) {
        if (returned instanceof TaskOutput output) {
            return output;
        }
        if (returnsPassages && returned instanceof Collection<?> passages) {
            // a retriever's task: the passages are its whole output, with no text
            return TaskOutput.of(null).withRetrieved(passages.stream().map(RetrievedPassage.class::cast).toList());
        }
        if (returned instanceof Completion completion) {
            TaskOutput output = TaskOutput.of(completion.text());
            // most completions call no tool: no second copy of the output to replace none with none
            return completion.toolCalls().isEmpty() ? output : output.withToolCalls(completion.toolCalls());
        }
        if (returned == null) {
            if (model.trajectory().lastModelStep().filter(last -> last.text().isBlank() && last.toolCalls().isEmpty())
                    .isPresent()) {
                // the model's last answer was empty, and a chat library gives that as null (Spring AI's content())
                throw new AgentFailure(AgentFailure.Kind.ANSWER, "case '" + evalCase.id() + "': the model's final "
                        + "answer was empty, and @Task " + task.getName() + "() returned null.");
            }
            throw new IllegalStateException("@Task " + task.getName() + "() returned null for case '" + evalCase.id()
                    + "'; return the output, or throw to report an error");
        }
        return Integrations.taskOutput(returned).orElseGet(() -> TaskOutput.of(Json.text(returned)));
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
