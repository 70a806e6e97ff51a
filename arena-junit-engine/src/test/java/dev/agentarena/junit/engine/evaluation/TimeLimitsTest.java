package dev.agentarena.junit.engine.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.Timeouts;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.config.MapConfigurationParameters;

class TimeLimitsTest {

    @TempDir
    Path root;

    @Test
    void declaredAmountsAreOfTheDeclaredUnitAndZeroKeepsTheConfiguredLimit() {
        TimeLimits limits = TimeLimits.of(configuration(Map.of("arena.timeout.hook", "7 s")), Declared.class);

        assertThat(limits.of(TimeLimits.Kind.TASK)).isEqualTo(Duration.ofMillis(1500));
        assertThat(limits.of(TimeLimits.Kind.HOOK)).as("0: the configured").isEqualTo(Duration.ofSeconds(7));
        assertThat(limits.of(TimeLimits.Kind.SCORER)).isEqualTo(Duration.ofMillis(250));
        assertThat(TimeLimits.of(configuration(Map.of()), Seconds.class).of(TimeLimits.Kind.TASK))
                .as("seconds by default").isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void aNegativeSubMillisecondOrOverflowingAmountIsAnErrorNamingTheClassTheLimitAndTheValue() {
        assertThatThrownBy(() -> TimeLimits.of(configuration(Map.of()), Negative.class))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("@Timeouts on " + Negative.class.getName() + ": hook = -5 SECONDS must be a positive "
                        + "duration, from 1 ms to 292 years (0 keeps the configured limit)");
        assertThatThrownBy(() -> TimeLimits.of(configuration(Map.of()), Tiny.class))
                .hasMessageContaining("task = 999 MICROSECONDS must be a positive duration");
        assertThatThrownBy(() -> TimeLimits.of(configuration(Map.of()), Huge.class))
                .hasMessageContaining("task = " + Long.MAX_VALUE + " DAYS must be a positive duration");
    }

    @Test
    void aDeclaredScorerLimitOverSixtySecondsIsAnErrorNamingTheAnnotation() {
        assertThatThrownBy(() -> TimeLimits.of(configuration(Map.of()), LongScorer.class))
                .hasMessage("the scorer time limit must be at most 60 s, but was 2 m (@Timeouts on "
                        + LongScorer.class.getName() + ")");
    }

    private ArenaConfiguration configuration(Map<String, String> values) {
        Map<String, String> all = new HashMap<>(values);
        all.put("arena.project.root", root.toString());
        return ArenaConfiguration.from(new MapConfigurationParameters(all));
    }

    @Timeouts(task = 1500, scorer = 250, unit = TimeUnit.MILLISECONDS)
    static class Declared {
    }

    @Timeouts(task = 90)
    static class Seconds {
    }

    @Timeouts(hook = -5)
    static class Negative {
    }

    @Timeouts(task = 999, unit = TimeUnit.MICROSECONDS)
    static class Tiny {
    }

    @Timeouts(task = Long.MAX_VALUE, unit = TimeUnit.DAYS)
    static class Huge {
    }

    @Timeouts(scorer = 2, unit = TimeUnit.MINUTES)
    static class LongScorer {
    }
}
