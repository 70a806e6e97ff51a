package dev.agentarena.junit.engine;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class of the slow loop: {@code mvn test} leaves it out and {@code mvn verify} runs it, in the engine module's
 * second Surefire execution ({@code slow-tests}). For what is slow by nature (a sandbox, a browser, real waits on a
 * loopback server, megabytes of input), never for a test made slow by a needless sleep or size
 * (docs/architecture/tests.md#two-loops).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(Slow.TAG)
public @interface Slow {

    /** The JUnit tag, which the engine module's {@code pom.xml} names. */
    String TAG = "slow";
}
