package dev.agentarena.junit.engine.integration.opentelemetry;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;

/**
 * The global OpenTelemetry the engine sets when none is: a tracer provider with only the {@link CaseSpanProcessor}
 * (so it samples every span and exports none) and W3C trace context propagation. Loaded only when the SDK is present.
 */
final class GlobalCapture {

    private GlobalCapture() {
    }

    /**
     * Sets the global OpenTelemetry when none is set, at the start of every run. It tries {@code set} and keeps what
     * is there when that fails (its own from an earlier run, too), rather than asking {@code isSet()}, which
     * OpenTelemetry added in 1.62: Spring Boot 3.5 and 4.0 manage 1.49 and 1.55.
     */
    static synchronized void install() {
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(new CaseSpanProcessor()).build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
        try {
            GlobalOpenTelemetry.set(sdk);
        }
        catch (IllegalStateException alreadySet) {
            // the application's own (the Java agent's, an autoconfigured SDK's, or the no-op a get() left): it
            // captures when it has the processor
            sdk.close();
        }
    }
}
