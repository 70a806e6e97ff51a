package dev.agentarena.junit.engine.evaluation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ModelCallCheck;
import dev.agentarena.junit.engine.models.recording.RecordedModelProvider;

/**
 * Whether an eval's task reached the model under evaluation ({@value Constants#TASK_REQUIRE_MODEL_CALL}): counts, per
 * model, the cases the task finished without one call through the case's model handle, and says so once per eval (or
 * makes each such case an error). Without this, an application whose own chat model answers every case produces a
 * leaderboard of the evaluated models' names with identical scores and zero tokens, and nothing else to notice.
 *
 * <p>Only cases that could have called it count: an eval with a {@code @Task} (without one the engine calls the model
 * itself) whose models someone chose (not the default model alone), a model other than {@code recorded}, a case without a recorded output (a task may score that output as it
 * is), and a task that reports no usage of its own ({@link TaskOutput#withUsage}: calls made past the handle).
 */
final class ModelCallCheckTally {

    private final ModelCallCheck check;
    private final String eval;
    private final String task;
    private final Predicate<String> hasModel;
    // per model: {cases without a call, cases that counted}
    private final Map<String, AtomicLong[]> byModel = new ConcurrentSkipListMap<>();

    /**
     * @param task how messages name the task ({@code @Task route()}), or {@code null} for an eval without one
     * @param modelsChosen whether anyone chose the eval's models ({@code @UseModels}, {@code @EvalModel},
     *        {@code arena.models}); an eval on the default model only, such as one of a deterministic function, runs on
     *        it because a model is needed, not to evaluate it
     * @param hasModel whether a key of the eval runs on a model (a configuration may run on none, and is not checked)
     */
    ModelCallCheckTally(ModelCallCheck check, String eval, String task, boolean modelsChosen,
            Predicate<String> hasModel) {
        this.check = task == null || !modelsChosen ? ModelCallCheck.OFF : check;
        this.hasModel = hasModel;
        this.eval = eval;
        this.task = task;
    }

    /**
     * Counts a case whose task returned; for {@link ModelCallCheck#ERROR}, the error its case is when the task made no
     * call, else empty.
     */
    Optional<IllegalStateException> taskFinished(String modelKey, EvalCase evalCase, CallUsage calls,
            TaskOutput output) {
        if (check == ModelCallCheck.OFF || RecordedModelProvider.KEY.equals(modelKey) || !hasModel.test(modelKey)
                || evalCase.recordedOutput().isPresent()) {
            return Optional.empty();
        }
        boolean called = calls.calls() > 0 || output.tokensIn() > 0 || output.tokensOut() > 0 || output.costUsd() > 0;
        AtomicLong[] counts = byModel.computeIfAbsent(modelKey, key -> new AtomicLong[] {new AtomicLong(),
                new AtomicLong()});
        counts[1].incrementAndGet();
        if (called) {
            return Optional.empty();
        }
        counts[0].incrementAndGet();
        if (check != ModelCallCheck.ERROR) {
            return Optional.empty();
        }
        return Optional.of(new IllegalStateException(task + " finished case '" + evalCase.id() + "' without calling "
                + "the model under evaluation, '" + modelKey + "' (" + Constants.TASK_REQUIRE_MODEL_CALL + "=error): "
                + "its output came from something else. " + remedy()));
    }

    /** The warning of the eval, once its cases ran: which models had cases without a call; empty when none. */
    Optional<String> warning() {
        if (check != ModelCallCheck.WARN) {
            return Optional.empty();
        }
        List<String> models = new ArrayList<>();
        byModel.forEach((model, counts) -> {
            long without = counts[0].get();
            if (without > 0) {
                models.add(without + " of " + counts[1].get() + " cases on " + model);
            }
        });
        if (models.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("eval '" + eval + "': " + task + " finished " + String.join(", ", models) + " without one "
                + "call reaching the model under evaluation, so those scores are of whatever answered instead (the "
                + "application's own chat model?) under the evaluated model's name. " + remedy()
                + " Set " + Constants.TASK_REQUIRE_MODEL_CALL + "=error to make such cases errors, or =off when the "
                + "task needs no model.");
    }

    private static String remedy() {
        return "Call the task's Model parameter, route the application's chat model to it (@RouteChatModelsToArena "
                + "for a Spring eval, see docs/guides/spring.md), or report calls made another way with "
                + "TaskOutput.withUsage.";
    }
}
