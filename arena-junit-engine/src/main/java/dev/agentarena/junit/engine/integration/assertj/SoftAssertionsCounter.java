package dev.agentarena.junit.engine.integration.assertj;

import java.lang.reflect.Method;
import java.util.List;

import org.junit.platform.commons.support.ReflectionSupport;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;

/**
 * Supports scorers that declare an AssertJ {@code SoftAssertions} parameter: the score is the fraction of assertions
 * that held, and the reason lists those that did not.
 *
 * <p>AssertJ is optional for the engine, so nothing here names its types; {@link CountingSoftAssertions} is loaded
 * only when a scorer asks for soft assertions.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SoftAssertionsCounter {

    private static final String SOFT_ASSERTIONS = "org.assertj.core.api.SoftAssertions";
    private static final int MAX_FAILURE_LENGTH = 160;

    private final Class<?> type;
    private final CountedAssertions instance;

    private SoftAssertionsCounter(Class<?> type, CountedAssertions instance) {
        this.type = type;
        this.instance = instance;
    }

    /** A fresh counter if the method declares a {@code SoftAssertions} parameter, else {@code null}. */
    public static SoftAssertionsCounter forMethod(Method method) {
        for (Class<?> type : method.getParameterTypes()) {
            if (type.getName().equals(SOFT_ASSERTIONS)) {
                Class<?> counting = ReflectionSupport
                        .tryToLoadClass("dev.agentarena.junit.engine.integration.assertj.CountingSoftAssertions",
                                type.getClassLoader())
                        .getOrThrow(e -> new IllegalStateException("AssertJ SoftAssertions support failed to load", e));
                return new SoftAssertionsCounter(type, (CountedAssertions) ReflectionSupport.newInstance(counting));
            }
        }
        return null;
    }

    public Class<?> type() {
        return type;
    }

    public Object instance() {
        return instance;
    }

    public boolean hasFailures() {
        return !instance.failureMessages().isEmpty();
    }

    public ScoreResult result() {
        List<String> failures = instance.failureMessages();
        int total = Math.max(instance.assertionCount(), failures.size());
        if (total == 0) {
            return ScoreResult.pass("no assertions were made");
        }
        int held = total - failures.size();
        double score = (double) held / total;
        if (failures.isEmpty()) {
            return ScoreResult.of(1.0, true).withReason(total + " of " + total + " assertions held");
        }
        StringBuilder reason = new StringBuilder(held + " of " + total + " assertions held; failed: ");
        for (int i = 0; i < failures.size(); i++) {
            reason.append(i == 0 ? "" : "; ").append(oneLine(failures.get(i)));
        }
        return ScoreResult.of(score, false).withReason(reason.toString()).withDetail("failures", failures);
    }

    /** AssertJ messages span lines ("Expecting actual:\n  ...\nto start with: ..."): the reason needs them in one. */
    private static String oneLine(String message) {
        String line = message == null ? "" : message.strip().replaceAll("\\s+", " ");
        return line.length() <= MAX_FAILURE_LENGTH ? line : line.substring(0, MAX_FAILURE_LENGTH - 1) + "…";
    }

    /** What {@link CountingSoftAssertions} tells the counter, in types the engine always has. */
    interface CountedAssertions {

        int assertionCount();

        List<String> failureMessages();
    }
}
