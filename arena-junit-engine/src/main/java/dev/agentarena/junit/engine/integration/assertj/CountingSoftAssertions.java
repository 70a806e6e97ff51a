package dev.agentarena.junit.engine.integration.assertj;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.assertj.core.api.Assert;
import org.assertj.core.api.SoftAssertions;

/** SoftAssertions that count each {@code assertThat(...)}, so a scorer can report the fraction that held. */
final class CountingSoftAssertions extends SoftAssertions implements SoftAssertionsCounter.CountedAssertions {

    private final AtomicInteger count = new AtomicInteger();

    @Override
    public <SELF extends Assert<? extends SELF, ? extends ACTUAL>, ACTUAL> SELF proxy(Class<SELF> assertClass,
            Class<ACTUAL> actualClass, ACTUAL actual) {
        count.incrementAndGet();
        return super.proxy(assertClass, actualClass, actual);
    }

    @Override
    public int assertionCount() {
        return count.get();
    }

    @Override
    public List<String> failureMessages() {
        List<String> messages = new ArrayList<>();
        for (Throwable error : assertionErrorsCollected()) {
            messages.add(String.valueOf(error.getMessage()));
        }
        return messages;
    }
}
