package dev.agentarena.junit.engine.integration.opentelemetry;

import org.apiguardian.api.API;

/**
 * Where the run switches the capture of the application's spans on: it names no OpenTelemetry type, and loads
 * {@link GlobalCapture} (which does) only once OpenTelemetry's SDK is found on the class path.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class OpenTelemetryCapture {

    /** The SDK's tracer provider's class file, whose presence says the SDK is on the class path. */
    static final String SDK_TRACER_PROVIDER = "io/opentelemetry/sdk/trace/SdkTracerProvider.class";

    // the engine's own loader decides (a library visible only to the context loader could not be linked from here),
    // by the class file, so that asking loads no OpenTelemetry class
    private static final boolean SDK = OpenTelemetryCapture.class.getClassLoader() != null
            && OpenTelemetryCapture.class.getClassLoader().getResource(SDK_TRACER_PROVIDER) != null;

    private OpenTelemetryCapture() {
    }

    /** Whether OpenTelemetry's SDK is on the class path. */
    public static boolean available() {
        return SDK;
    }

    /**
     * Sets a global OpenTelemetry whose tracer provider captures spans into cases ({@link CaseSpanProcessor}) and
     * exports nothing, when the SDK is on the class path and no global one is set yet (asked with
     * {@code arena.tracing.capture=true} only). An application
     * that asks {@code GlobalOpenTelemetry} for a tracer then has its spans captured with no code in the test.
     */
    public static void installGlobal() {
        if (SDK) {
            GlobalCapture.install();
        }
    }
}
