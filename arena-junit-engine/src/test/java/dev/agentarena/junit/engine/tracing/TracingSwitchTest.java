package dev.agentarena.junit.engine.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.models.TestConfigurations;

/**
 * When a run exports spans: {@code arena.tracing.enabled} when set, else the standard settings (an exporter other
 * than {@code none}, or an OTLP endpoint, unless the SDK is disabled), from the environment or the JUnit
 * configuration; and what the SDK gets under the user's settings.
 */
class TracingSwitchTest {

    @TempDir
    Path root;

    @Test
    void offByDefault() {
        assertThat(askedBy(Map.of(), Map.of())).isEmpty();
    }

    @Test
    void theArenaSwitchWinsEitherWay() {
        assertThat(askedBy(Map.of(Constants.TRACING_ENABLED, "true"), Map.of())).contains("arena.tracing.enabled=true");
        assertThat(askedBy(Map.of(Constants.TRACING_ENABLED, "false"),
                Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"))).isEmpty();
    }

    @Test
    void anOtlpEndpointOrAnExporterTurnsItOnUnlessTheSdkIsDisabled() {
        assertThat(askedBy(Map.of(), Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")))
                .contains("OTEL_EXPORTER_OTLP_ENDPOINT set");
        assertThat(askedBy(Map.of(), Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://collector:4318/v1/traces")))
                .contains("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set");
        assertThat(askedBy(Map.of("otel.exporter.otlp.endpoint", "http://collector:4318"), Map.of()))
                .as("in junit-platform.properties").isPresent();
        assertThat(askedBy(Map.of(), Map.of("OTEL_TRACES_EXPORTER", "console"))).contains("OTEL_TRACES_EXPORTER=console");
        assertThat(askedBy(Map.of(), Map.of("OTEL_TRACES_EXPORTER", "none", "OTEL_EXPORTER_OTLP_ENDPOINT",
                "http://collector:4318"))).isEmpty();
        assertThat(askedBy(Map.of(), Map.of("OTEL_SDK_DISABLED", "true", "OTEL_EXPORTER_OTLP_ENDPOINT",
                "http://collector:4318"))).isEmpty();
    }

    @Test
    void theSdkGetsTheServiceNameAndOnlyTracesUnderTheUsersSettings() {
        Map<String, String> properties = settings(Map.of("otel.exporter.otlp.endpoint", "http://c:4318",
                "arena.models", "sim_small"), Map.of()).properties();
        assertThat(properties).containsEntry("otel.service.name", "agent-arena")
                .containsEntry("otel.metrics.exporter", "none").containsEntry("otel.logs.exporter", "none")
                .containsEntry("otel.exporter.otlp.endpoint", "http://c:4318").doesNotContainKey("arena.models");
        assertThat(settings(Map.of(), Map.of("OTEL_RESOURCE_ATTRIBUTES", "service.name=checkout")).properties())
                .as("the user's service name stands").doesNotContainKey("otel.service.name");
        assertThat(settings(Map.of(), Map.of("OTEL_SERVICE_NAME", "checkout")).properties())
                .doesNotContainKey("otel.service.name");
    }

    @Test
    void aSettingTheSdkRefusesIsOneWarningFromTheTracersThread() {
        List<String> told = new CopyOnWriteArrayList<>();
        Tracing tracing = Tracing.start(configuration(Map.of(Constants.TRACING_ENABLED, "true",
                "otel.traces.exporter", "no-such-exporter")), name -> null,
                warning -> told.add(Thread.currentThread().getName() + ": " + warning));
        tracing.close();
        assertThat(told).singleElement().satisfies(warning -> assertThat(warning)
                .as("the SDK is configured off the run's thread").startsWith("arena-tracing: ")
                .contains("tracing is on (arena.tracing.enabled=true) but OpenTelemetry could not be configured")
                .contains("no-such-exporter"));
    }

    private Optional<String> askedBy(Map<String, String> parameters, Map<String, String> environment) {
        return Tracing.askedBy(configuration(parameters), settings(parameters, environment));
    }

    private Tracing.OtelSettings settings(Map<String, String> parameters, Map<String, String> environment) {
        return new Tracing.OtelSettings(configuration(parameters), environment::get);
    }

    private ArenaConfiguration configuration(Map<String, String> parameters) {
        return TestConfigurations.configuration(root, parameters);
    }
}
