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

    /** Sets the global OpenTelemetry when none is set: asked at the start of every run, it costs a check. */
    static synchronized void install() {
        if (GlobalOpenTelemetry.isSet()) {
            // the application's own (the Java agent's, an autoconfigured SDK's): it captures when it has the processor
            return;
        }
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(new CaseSpanProcessor()).build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
        try {
            GlobalOpenTelemetry.set(sdk);
        }
        catch (IllegalStateException setMeanwhile) {
            // another thread set one between the check and here: it is the application's, and stays
            sdk.close();
        }
    }
}
