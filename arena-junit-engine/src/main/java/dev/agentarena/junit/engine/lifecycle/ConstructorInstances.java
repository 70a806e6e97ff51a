package dev.agentarena.junit.engine.lifecycle;

import java.lang.reflect.Method;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * The engine's default {@link EvalInstances}: the eval class and the classes it names are created with their
 * no-argument constructors, and cases have no callbacks.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ConstructorInstances implements EvalInstances {

    private final Class<?> evalClass;

    /** For one eval class. */
    public ConstructorInstances(Class<?> evalClass) {
        this.evalClass = evalClass;
    }

    @Override
    public Object createEvalInstance() {
        try {
            evalClass.getDeclaredConstructor();
        }
        catch (NoSuchMethodException e) {
            throw new EvalInstanceException(evalClass.getName() + " needs a constructor without parameters: the "
                    + "engine creates one instance per run to call its non-static dataset, scorer, task and hook "
                    + "methods (or make those methods static; for constructor injection, annotate the class for "
                    + "Spring's TestContext framework, e.g. @SpringJUnitConfig or @SpringBootTest)");
        }
        return ReflectionSupport.newInstance(evalClass);
    }

    @Override
    public Object createHelper(Class<?> type) {
        return ReflectionSupport.newInstance(type);
    }

    @Override
    public CaseCallbacks caseCallbacks(Object evalInstance, Method task) {
        return CaseCallbacks.NONE;
    }

    @Override
    public void close() {
        // nothing was opened
    }
}
