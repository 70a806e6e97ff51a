package dev.agentarena.junit.engine.lifecycle;

import java.lang.reflect.Method;

import org.apiguardian.api.API;

/**
 * Creates the objects one eval class runs on, surrounds each case with the callbacks their creator needs, and is
 * closed when the class is done.
 *
 * <p>The engine's default builds the eval class with its no-argument constructor ({@link ConstructorInstances}); an
 * eval class annotated for Spring's TestContext framework gets its beans injected and Spring's test execution
 * callbacks instead. One is opened per eval class and run, before the class's first case, and closed after its last;
 * cases call {@link #caseCallbacks} from several threads at once.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface EvalInstances extends AutoCloseable {

    /**
     * A new instance of the eval class, its dependencies in place.
     *
     * @throws EvalInstanceException when it cannot be created; the message says what to change
     */
    Object createEvalInstance();

    /**
     * A new instance of a class the eval names, such as a {@code @ProcessWith} class.
     *
     * @throws EvalInstanceException when it cannot be created
     */
    Object createHelper(Class<?> type);

    /**
     * What surrounds each case of the eval whose task is {@code task}, run on {@code evalInstance}; the same for
     * every case.
     */
    CaseCallbacks caseCallbacks(Object evalInstance, Method task);

    /** After the eval class's last case; never throws for a failing callback, which it reports instead. */
    @Override
    void close();
}
