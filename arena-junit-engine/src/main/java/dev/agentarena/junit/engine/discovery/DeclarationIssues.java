package dev.agentarena.junit.engine.discovery;

import java.util.HashSet;
import java.util.Set;

import org.apiguardian.api.API;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;

import dev.agentarena.junit.engine.definition.DeclarationProblem;
import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.descriptor.ArenaEngineDescriptor;
import dev.agentarena.junit.engine.descriptor.EvalClassDescriptor;

/**
 * Reports what is wrong with the declaration of each discovered eval class as a JUnit discovery issue (Platform
 * 1.13+), pointing at the method at fault or the class: the launcher logs it, IDEs and build tools show it, and
 * with {@code junit.platform.discovery.issue.severity.critical=WARNING} the launcher fails the engine on it before any
 * eval runs.
 *
 * <p>Severity {@link DiscoveryIssue.Severity#WARNING}, as Jupiter reports a test class it will not run: at the
 * default critical severity ({@code ERROR}) an issue would stop every eval of the engine, where one broken class
 * must not hide the others. The class still runs, to fail as its {@code cannot run} test and an errored eval in the
 * results. On a Platform older than 1.13 there is no issue to report and only the failing test remains.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DeclarationIssues {

    private DeclarationIssues() {
    }

    /**
     * Reports the problems of every eval class below the engine, and each inner eval class of a selected class that
     * was not selected itself (it would be skipped without a word).
     */
    public static void report(EngineDiscoveryRequest request, ArenaEngineDescriptor engine) {
        try {
            Set<Class<?>> discovered = new HashSet<>();
            for (TestDescriptor child : engine.getChildren()) {
                if (child instanceof EvalClassDescriptor evalClass) {
                    discovered.add(evalClass.definition().testClass());
                }
            }
            for (Class<?> inner : engine.innerEvals()) {
                if (!discovered.contains(inner)) {
                    Class<?> outer = inner.getEnclosingClass();
                    request.getDiscoveryListener().issueEncountered(engine.getUniqueId(), DiscoveryIssue.builder(
                            DiscoveryIssue.Severity.WARNING, inner.getName() + " is an eval in an inner class of "
                                    + outer.getName() + ", and does not run: the engine cannot create it without an "
                                    + "instance of " + outer.getSimpleName() + ". Declare it static (under Surefire, "
                                    + "a nested class also needs an <excludes> override: see "
                                    + "docs/guides/writing-evals.md) or move it to a file of its own.")
                            .source(ClassSource.from(inner)).build());
                }
            }
            for (TestDescriptor child : engine.getChildren()) {
                if (child instanceof EvalClassDescriptor) {
                    EvalDefinition definition = ((EvalClassDescriptor) child).definition();
                    for (DeclarationProblem problem : definition.declarationProblems()) {
                        String message = problem.message() + (problem.message().endsWith(".") ? "" : ".")
                                + " The class fails as its test 'cannot run'.";
                        request.getDiscoveryListener().issueEncountered(engine.getUniqueId(),
                                DiscoveryIssue.builder(DiscoveryIssue.Severity.WARNING, message)
                                        .source(source(definition, problem)).build());
                    }
                }
            }
        }
        catch (LinkageError e) {
            // JUnit Platform before 1.13: no discovery issues; the failing test says it all
        }
    }

    private static TestSource source(EvalDefinition definition, DeclarationProblem problem) {
        return problem.at().<TestSource>map(MethodSource::from)
                .orElseGet(() -> ClassSource.from(definition.testClass()));
    }
}
