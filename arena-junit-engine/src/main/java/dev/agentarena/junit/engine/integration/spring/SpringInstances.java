package dev.agentarena.junit.engine.integration.spring;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;

import org.springframework.beans.factory.annotation.ParameterResolutionDelegate;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.TestContextManager;
import org.springframework.test.context.support.PropertyProvider;

import dev.agentarena.junit.engine.lifecycle.CaseCallbacks;
import dev.agentarena.junit.engine.lifecycle.EvalInstanceException;
import dev.agentarena.junit.engine.lifecycle.EvalInstances;

/**
 * Eval instances made by Spring's TestContext framework, as {@code SpringExtension} makes JUnit Jupiter test
 * instances: one {@link TestContextManager} per eval class, whose listeners are called before and after the class
 * ({@code beforeTestClass}, {@code afterTestClass}), prepare each instance ({@code prepareTestInstance}: field and
 * method injection, Mockito beans, ...) and surround each case ({@link SpringCaseCallbacks}).
 *
 * <p>The constructor's parameters come from the application context by Spring's rules for test constructors: all of
 * them when the constructor is {@code @Autowired}, the class is {@code @TestConstructor(autowireMode = ALL)} or
 * {@code spring.test.constructor.autowire.mode=all} is set; otherwise those of type {@code ApplicationContext} and
 * those annotated {@code @Autowired}, {@code @Qualifier} or {@code @Value}. Application contexts are loaded through
 * Spring's context cache, so eval classes (and JUnit Jupiter tests) with the same configuration share one.
 */
final class SpringInstances implements EvalInstances {

    private final Class<?> evalClass;
    private final TestContextManager manager;
    private final PropertyProvider properties;

    private SpringInstances(Class<?> evalClass, TestContextManager manager, PropertyProvider properties) {
        this.evalClass = evalClass;
        this.manager = manager;
        this.properties = properties;
    }

    static SpringInstances open(Class<?> evalClass, Function<String, Optional<String>> properties) {
        TestContextManager manager;
        try {
            manager = new TestContextManager(evalClass);
        }
        catch (RuntimeException | LinkageError e) {
            throw failure("cannot bootstrap its TestContext framework for", evalClass, e);
        }
        SpringInstances instances = new SpringInstances(evalClass, manager,
                name -> properties.apply(name).orElse(null));
        try {
            manager.beforeTestClass();
        }
        catch (Throwable t) {
            EvalInstanceException failure = failure("beforeTestClass callback failed for", evalClass, t);
            try {
                // as SpringExtension: afterAll runs even when beforeAll failed
                manager.afterTestClass();
            }
            catch (Throwable again) {
                failure.addSuppressed(again);
            }
            throw failure;
        }
        return instances;
    }

    @Override
    public Object createEvalInstance() {
        Object instance = construct();
        try {
            manager.prepareTestInstance(instance);
        }
        catch (Exception e) {
            throw failure("cannot prepare (inject) an instance of", e);
        }
        return instance;
    }

    private Object construct() {
        Constructor<?> constructor = constructor();
        Parameter[] parameters = constructor.getParameters();
        Object[] arguments = new Object[parameters.length];
        if (parameters.length > 0) {
            boolean all = AutowirableConstructors.isAutowirable(constructor, evalClass, properties);
            ApplicationContext context = applicationContext();
            for (int i = 0; i < parameters.length; i++) {
                Parameter parameter = parameters[i];
                if (!all && !ApplicationContext.class.isAssignableFrom(parameter.getType())
                        && !ParameterResolutionDelegate.isAutowirable(parameter, i)) {
                    throw new EvalInstanceException(evalClass.getName() + ": Spring does not resolve constructor "
                            + "parameter " + i + " (" + parameter.getType().getSimpleName() + " " + parameter.getName()
                            + "); annotate the constructor with @Autowired, the class with "
                            + "@TestConstructor(autowireMode = ALL), or set spring.test.constructor.autowire.mode=all");
                }
                try {
                    arguments[i] = ParameterResolutionDelegate.resolveDependency(parameter, i, evalClass,
                            context.getAutowireCapableBeanFactory());
                }
                catch (RuntimeException e) {
                    throw failure("cannot resolve constructor parameter " + i + " (" + parameter.getType().getSimpleName()
                            + " " + parameter.getName() + ") of", e);
                }
            }
        }
        try {
            constructor.setAccessible(true);
            return constructor.newInstance(arguments);
        }
        catch (InvocationTargetException e) {
            throw failure("the constructor threw for", e.getCause());
        }
        catch (ReflectiveOperationException | RuntimeException e) {
            throw failure("cannot call the constructor of", e);
        }
    }

    /** The one constructor the class declares, as JUnit Jupiter wants; with several, the one without parameters. */
    private Constructor<?> constructor() {
        if (evalClass.isMemberClass() && !Modifier.isStatic(evalClass.getModifiers())) {
            throw new EvalInstanceException(evalClass.getName() + " is an inner class; make it static");
        }
        Constructor<?>[] constructors = evalClass.getDeclaredConstructors();
        if (constructors.length == 1) {
            return constructors[0];
        }
        return Arrays.stream(constructors).filter(c -> c.getParameterCount() == 0).findFirst()
                .orElseThrow(() -> new EvalInstanceException(evalClass.getName() + " declares "
                        + constructors.length + " constructors with parameters; declare one, whose parameters Spring "
                        + "resolves"));
    }

    private ApplicationContext applicationContext() {
        try {
            return manager.getTestContext().getApplicationContext();
        }
        catch (RuntimeException e) {
            throw failure("cannot load the ApplicationContext of", e);
        }
    }

    @Override
    public Object createHelper(Class<?> type) {
        try {
            return applicationContext().getAutowireCapableBeanFactory().createBean(type);
        }
        catch (RuntimeException e) {
            throw new EvalInstanceException(evalClass.getName() + ": Spring cannot create " + type.getName() + ": "
                    + rootMessage(e), e);
        }
    }

    @Override
    public CaseCallbacks caseCallbacks(Object evalInstance, Method task) {
        if (evalInstance == null || task == null) {
            return CaseCallbacks.NONE;
        }
        return new SpringCaseCallbacks(manager, evalInstance, task);
    }

    @Override
    public void close() {
        try {
            manager.afterTestClass();
        }
        catch (Throwable t) {
            throw failure("afterTestClass callback failed for", t);
        }
    }

    private EvalInstanceException failure(String what, Throwable cause) {
        return failure(what, evalClass, cause);
    }

    private static EvalInstanceException failure(String what, Class<?> evalClass, Throwable cause) {
        return new EvalInstanceException("Spring " + what + " " + evalClass.getName() + ": " + rootMessage(cause), cause);
    }

    /** The message, followed by the root cause's when that differs: Spring's own messages wrap the useful one. */
    static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = String.valueOf(error.getMessage());
        if (root == error) {
            return message;
        }
        return message + " (caused by " + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
    }
}
