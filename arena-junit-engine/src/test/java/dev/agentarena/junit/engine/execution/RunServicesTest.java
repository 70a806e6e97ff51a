package dev.agentarena.junit.engine.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.ConfigurationParameters;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.MapConfigurationParameters;
import dev.agentarena.junit.engine.reporting.ReportingSession;

class RunServicesTest {

    @TempDir
    Path directory;

    @Test
    void theLowScoreNoteIsSaidOnceAndItsSettingReadOncePerRunNotPerLowScore() {
        AtomicInteger lowScoreReads = new AtomicInteger();
        try (RunServices run = RunServices.start(ArenaConfiguration.withoutFile(counting(lowScoreReads)),
                new ReportingSession())) {
            int readsToStart = lowScoreReads.get();

            assertThat(run.noteLowScoreFailedByDefault()).isPresent();
            for (int i = 0; i < 1000; i++) {
                assertThat(run.noteLowScoreFailedByDefault()).isEmpty();
            }
            assertThat(lowScoreReads.get() - readsToStart).as("reads of " + Constants.LOW_SCORES).isZero();
        }
    }

    private ConfigurationParameters counting(AtomicInteger lowScoreReads) {
        MapConfigurationParameters parameters = new MapConfigurationParameters(Map.of(
                Constants.PROJECT_ROOT, directory.toString(),
                Constants.OUTPUT_DIR, directory.resolve("arena").toString()));
        return new ConfigurationParameters() {
            @Override
            public Optional<String> get(String key) {
                if (key.equals(Constants.LOW_SCORES)) {
                    lowScoreReads.incrementAndGet();
                }
                return parameters.get(key);
            }

            @Override
            public Optional<Boolean> getBoolean(String key) {
                return get(key).map(Boolean::parseBoolean);
            }

            @Override
            @SuppressWarnings("deprecation")
            public int size() {
                return parameters.size();
            }

            @Override
            public Set<String> keySet() {
                return parameters.keySet();
            }
        };
    }
}
