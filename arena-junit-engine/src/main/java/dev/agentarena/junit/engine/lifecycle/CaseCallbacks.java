package dev.agentarena.junit.engine.lifecycle;

import org.apiguardian.api.API;

/**
 * The callbacks around one case of an eval, in this order, all on the thread that evaluates the case:
 * {@link #beforeCase}, then around the task alone {@link #beforeTask} and {@link #afterTask}, then, after the hooks
 * and scorers, {@link #afterCase}. Each "after" runs when its "before" was called, even if that failed.
 *
 * <p>For Spring's TestContext framework a case is a test method: {@code beforeTestMethod} and {@code afterTestMethod}
 * around the whole case, {@code beforeTestExecution} and {@code afterTestExecution} around the task.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface CaseCallbacks {

    /** No callbacks: the engine's default. */
    CaseCallbacks NONE = new CaseCallbacks() {
    };

    /**
     * Before the case's hooks and task.
     *
     * @throws EvalInstanceException when a callback fails; the case is then an error
     */
    default void beforeCase() {
    }

    /** Right before the task runs. */
    default void beforeTask() {
    }

    /**
     * Right after the task ran.
     *
     * @param error what the task threw, or {@code null}
     */
    default void afterTask(Throwable error) {
    }

    /**
     * After the case's hooks and scorers.
     *
     * @param error what failed the case (a task or hook that threw), or {@code null}; a low score is no error
     */
    default void afterCase(Throwable error) {
    }
}
