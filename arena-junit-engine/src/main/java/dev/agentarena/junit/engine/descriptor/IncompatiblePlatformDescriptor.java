package dev.agentarena.junit.engine.descriptor;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.apiguardian.api.API;
import org.junit.platform.commons.JUnitException;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.integration.versions.JacksonVersions;

/**
 * The whole test tree on a class path the engine cannot run on (a JUnit Platform older than it needs, a Jackson whose
 * jars do not match): one failing test that says so. Throwing from discovery instead took the project's other tests
 * down with it on Platform 1.12 (Surefire's fork ended at "TestEngine with ID 'agent-arena' failed to discover
 * tests"), and showed only a linkage error on a mismatched Jackson. Only JUnit API as old as Platform 1.0 is used
 * here, and Jackson only through {@link JacksonVersions}, which reads its jars' versions.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class IncompatiblePlatformDescriptor extends EngineDescriptor implements Node<ArenaExecutionContext> {

    /**
     * @param check what was refused: the failing test's id segment and display name
     * @param message what is wrong and how to fix it, the failure of each test
     * @param evalClasses the eval classes selected, each of which gets the failing test (build tools such as Surefire
     *        report only tests with a class); with none, one test without a class stands for the run
     */
    public IncompatiblePlatformDescriptor(UniqueId uniqueId, Check check, String message,
            List<Class<?>> evalClasses) {
        super(uniqueId, "Agent Arena");
        if (evalClasses.isEmpty()) {
            addChild(new Failing(uniqueId.append("check", check.id()), check.name(), message, null));
        }
        for (Class<?> evalClass : evalClasses) {
            // as every eval's tests, below a container of its class: Surefire reports a test by its class container
            UniqueId classId = uniqueId.append("class", evalClass.getName());
            EvalClass container = new EvalClass(classId, evalClass);
            container.addChild(new Failing(classId.append("check", check.id()), check.name(), message,
                    ClassSource.from(evalClass)));
            addChild(container);
        }
    }

    /**
     * The tree of a run whose Jackson jars do not match ({@link JacksonVersions}), or empty when they do. It reads
     * only the jars' versions: call it before anything loads databind's other classes.
     *
     * @param evalClasses the eval classes selected, asked only for a tree
     */
    public static Optional<IncompatiblePlatformDescriptor> ofMismatchedJackson(UniqueId uniqueId,
            Supplier<List<Class<?>>> evalClasses) {
        return JacksonVersions.problem().map(problem -> new IncompatiblePlatformDescriptor(uniqueId, Check.JACKSON,
                problem, evalClasses.get()));
    }

    /** What the engine checked and refused: the failing test's id segment and display name. */
    public record Check(String id, String name) {

        public static final Check JUNIT_PLATFORM = new Check("junit-platform", "JUnit Platform version");

        public static final Check JACKSON = new Check("jackson", "Jackson versions");
    }

    /** An eval class, holding its failing test. */
    private static final class EvalClass extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

        EvalClass(UniqueId uniqueId, Class<?> evalClass) {
            super(uniqueId, evalClass.getSimpleName(), ClassSource.from(evalClass));
        }

        @Override
        public Type getType() {
            return Type.CONTAINER;
        }
    }

    /** The test that fails with the message. */
    private static final class Failing extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

        private final String message;

        Failing(UniqueId uniqueId, String name, String message, ClassSource source) {
            super(uniqueId, name, source);
            this.message = message;
        }

        @Override
        public Type getType() {
            return Type.TEST;
        }

        @Override
        public ArenaExecutionContext execute(ArenaExecutionContext context, DynamicTestExecutor dynamicTestExecutor) {
            throw new JUnitException(message);
        }
    }
}
