package dev.agentarena.junit.engine.integration.spring;

import java.lang.reflect.Method;

import org.springframework.test.context.TestContextManager;

import dev.agentarena.junit.engine.lifecycle.CaseCallbacks;
import dev.agentarena.junit.engine.lifecycle.EvalInstanceException;

/**
 * Spring's per-test callbacks around each case, whose test method is the eval's {@code @Task}: {@code beforeTestMethod}
 * and {@code afterTestMethod} around the whole case (hooks, task and scorers, so that a scorer still sees what the task
 * did inside a test-managed transaction, and a mock's interactions before Spring resets it), {@code
 * beforeTestExecution} and {@code afterTestExecution} around the task alone.
 *
 * <p>Cases run on the engine's call threads, several at once; the {@code TestContextManager} keeps one test context
 * per thread, so each case's callbacks see their own test method state, as under JUnit Jupiter's parallel execution.
 */
final class SpringCaseCallbacks implements CaseCallbacks {

    private final TestContextManager manager;
    private final Object instance;
    private final Method task;

    SpringCaseCallbacks(TestContextManager manager, Object instance, Method task) {
        this.manager = manager;
        this.instance = instance;
        this.task = task;
    }

    @Override
    public void beforeCase() {
        call("beforeTestMethod", () -> manager.beforeTestMethod(instance, task));
    }

    @Override
    public void beforeTask() {
        call("beforeTestExecution", () -> manager.beforeTestExecution(instance, task));
    }

    @Override
    public void afterTask(Throwable error) {
        call("afterTestExecution", () -> manager.afterTestExecution(instance, task, error));
    }

    @Override
    public void afterCase(Throwable error) {
        call("afterTestMethod", () -> manager.afterTestMethod(instance, task, error));
    }

    private void call(String callback, Callback body) {
        try {
            body.run();
        }
        catch (Exception e) {
            throw new EvalInstanceException("Spring's " + callback + " callback failed for "
                    + task.getDeclaringClass().getSimpleName() + "." + task.getName() + "(): "
                    + SpringInstances.rootMessage(e), e);
        }
    }

    /** A call into the {@code TestContextManager}, whose callbacks declare {@code Exception}. */
    private interface Callback {
        void run() throws Exception;
    }
}
