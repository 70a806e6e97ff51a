package dev.agentarena.junit.engine.tracing;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.reporting.RunListener;

/**
 * Whether a run exports its spans through OpenTelemetry, and, when it does, the listener that exports them. Off by
 * default: on with {@value Constants#TRACING_ENABLED}{@code =true}, or, when that is set nowhere, when the standard
 * settings ask for traces ({@code OTEL_TRACES_EXPORTER} set and not {@code none}, or an OTLP endpoint set, and
 * {@code OTEL_SDK_DISABLED} not {@code true}); {@code false} keeps it off whatever they say.
 *
 * <p>This class names no OpenTelemetry type: when tracing is off no OpenTelemetry class is loaded, and when it is
 * asked for without the SDK on the class path the run goes on with one warning naming the dependencies to add. The SDK
 * itself is configured on the tracer's thread, off the run's: settings it refuses are told as one warning from there.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Tracing implements AutoCloseable {

    /** The class whose presence says the SDK can be configured from the standard settings. */
    static final String AUTOCONFIGURE = "io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk";
    /** What to add, for the warning when tracing is asked for without the SDK. */
    static final String DEPENDENCIES = "io.opentelemetry:opentelemetry-sdk-extension-autoconfigure and "
            + "io.opentelemetry:opentelemetry-exporter-otlp (test scope; 1.68.0 is the version tested)";

    private static final Tracing OFF = new Tracing(null, null);

    private final OtelRunTracer tracer;
    private final String warning;

    private Tracing(OtelRunTracer tracer, String warning) {
        this.tracer = tracer;
        this.warning = warning;
    }

    /**
     * The run's tracing, reading the standard settings from system properties and the environment.
     *
     * @param warnings where an exporter's failure is told, once, on whatever thread exported
     */
    public static Tracing start(ArenaConfiguration configuration, Consumer<String> warnings) {
        return start(configuration, System::getenv, warnings);
    }

    static Tracing start(ArenaConfiguration configuration, UnaryOperator<String> environment,
            Consumer<String> warnings) {
        OtelSettings otel = new OtelSettings(configuration, environment);
        Optional<String> askedBy = askedBy(configuration, otel);
        if (askedBy.isEmpty()) {
            return OFF;
        }
        if (!onClassPath(AUTOCONFIGURE)) {
            return new Tracing(null, "tracing is on (" + askedBy.get() + ") but OpenTelemetry's SDK is not on the "
                    + "test class path: no span is exported. Add " + DEPENDENCIES);
        }
        boolean content = configuration.typed().tracingCaptureContent()
                .orElseGet(() -> otel.get("otel.instrumentation.genai.capture-message-content")
                        .map(value -> value.equalsIgnoreCase("true")).orElse(false));
        // a bad OTEL_* value, an exporter named but missing: said once, and the run goes on without spans
        Function<Throwable, String> notConfigured = e -> "tracing is on (" + askedBy.get() + ") but OpenTelemetry "
                + "could not be configured, no span is exported: " + e.getMessage();
        try {
            return new Tracing(OtelRunTracer.start(otel.properties(), content,
                    configuration.typed().outputTextLimit(), warnings, notConfigured), null);
        }
        catch (RuntimeException | LinkageError e) {
            return new Tracing(null, notConfigured.apply(e));
        }
    }

    /** What turned tracing on, for messages; empty when it is off. */
    static Optional<String> askedBy(ArenaConfiguration configuration, OtelSettings otel) {
        Optional<Boolean> explicit = configuration.typed().tracingEnabled();
        if (explicit.isPresent()) {
            return explicit.get() ? Optional.of(Constants.TRACING_ENABLED + "=true") : Optional.empty();
        }
        if (otel.get("otel.sdk.disabled").filter(value -> value.equalsIgnoreCase("true")).isPresent()) {
            return Optional.empty();
        }
        Optional<String> exporter = otel.get("otel.traces.exporter");
        if (exporter.isPresent()) {
            return exporter.get().equalsIgnoreCase("none") ? Optional.empty()
                    : Optional.of("OTEL_TRACES_EXPORTER=" + exporter.get());
        }
        for (String endpoint : new String[] {"otel.exporter.otlp.traces.endpoint", "otel.exporter.otlp.endpoint"}) {
            if (otel.get(endpoint).isPresent()) {
                return Optional.of(OtelSettings.environmentName(endpoint) + " set");
            }
        }
        return Optional.empty();
    }

    private static boolean onClassPath(String className) {
        try {
            Class.forName(className, false, Tracing.class.getClassLoader());
            return true;
        }
        catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The listener that exports the run's spans, when tracing is on and configured. */
    public Optional<RunListener> listener() {
        return Optional.ofNullable(tracer);
    }

    /** Why tracing, asked for, exports nothing (the SDK missing, a setting it refused); told once by the run. */
    public Optional<String> warning() {
        return Optional.ofNullable(warning);
    }

    /** Ends what is still open, exports what is left and shuts the SDK down (waiting a bounded time). */
    @Override
    public void close() {
        if (tracer != null) {
            tracer.close();
        }
    }

    /**
     * The standard OpenTelemetry settings as the SDK reads them (a system property {@code otel.x.y} before the
     * environment's {@code OTEL_X_Y}), then the JUnit configuration parameters named {@code otel.*}
     * ({@code junit-platform.properties}), which the SDK gets as its lowest-priority properties, with the engine's
     * defaults under them.
     */
    static final class OtelSettings {
        private final ArenaConfiguration configuration;
        private final UnaryOperator<String> environment;

        OtelSettings(ArenaConfiguration configuration, UnaryOperator<String> environment) {
            this.configuration = configuration;
            this.environment = environment;
        }

        static String environmentName(String key) {
            return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
        }

        Optional<String> get(String key) {
            String value = System.getProperty(key);
            if (value == null || value.isBlank()) {
                value = environment.apply(environmentName(key));
            }
            if (value == null || value.isBlank()) {
                return configuration.parameterKeys().contains(key) ? configuration.get(key) : Optional.empty();
            }
            return Optional.of(value.trim());
        }

        /**
         * The properties the SDK gets under its system properties and environment: the engine's defaults (the
         * service name {@code agent-arena} unless one is set, only traces exported, a span queue that holds a fast
         * run's spans), then the {@code otel.*} JUnit configuration parameters.
         */
        Map<String, String> properties() {
            Map<String, String> properties = new LinkedHashMap<>();
            if (get("otel.service.name").isEmpty()
                    && !get("otel.resource.attributes").orElse("").contains("service.name=")) {
                properties.put("otel.service.name", "agent-arena");
            }
            properties.put("otel.metrics.exporter", "none");
            properties.put("otel.logs.exporter", "none");
            properties.put("otel.bsp.max.queue.size", "65536");
            properties.put("otel.bsp.max.export.batch.size", "2048");
            properties.put("otel.bsp.schedule.delay", "1000");
            for (String key : configuration.parameterKeys()) {
                if (key.startsWith("otel.")) {
                    configuration.get(key).ifPresent(value -> properties.put(key, value));
                }
            }
            return properties;
        }
    }
}
