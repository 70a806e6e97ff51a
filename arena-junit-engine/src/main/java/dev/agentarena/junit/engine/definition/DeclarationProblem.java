package dev.agentarena.junit.engine.definition;

import java.lang.reflect.Method;
import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * One thing wrong with how an eval class is declared, found at discovery: reported as a JUnit discovery issue
 * pointing at the method at fault (or the class), and, when the class runs, as its failed {@code cannot run} test.
 *
 * @param message what is wrong and how to fix it, naming the class or method
 * @param method the method at fault, or {@code null} when the class itself is
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record DeclarationProblem(String message, Method method) {

    /** Validates the message. */
    public DeclarationProblem {
        Objects.requireNonNull(message, "message");
    }

    /** A problem of the class as a whole. */
    static DeclarationProblem ofClass(String message) {
        return new DeclarationProblem(message, null);
    }

    /** The method at fault, if the problem is one method's. */
    public Optional<Method> at() {
        return Optional.ofNullable(method);
    }
}
