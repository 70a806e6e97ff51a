package dev.agentarena.junit.engine.integration.opentelemetry;

import org.apiguardian.api.API;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * The OpenTelemetry SDK's span processor that captures the application's spans into the case that runs while they
 * start ({@link CaseSpans} says which): add it to the SDK's tracer provider
 * ({@code SdkTracerProvider.builder().addSpanProcessor(new CaseSpanProcessor())}), or declare it as a bean for Spring
 * Boot's OpenTelemetry auto-configuration. The engine adds it itself to the global SDK it installs when none is set
 * ({@code arena.tracing.capture}).
 *
 * <p>It only listens: it changes no span, exports nothing, and leaves the SDK's other processors as they are.
 * Creating one switches capture on for the JVM's cases; outside a case it does nothing.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public final class CaseSpanProcessor implements SpanProcessor {

    /** Creates the processor and switches capture on. */
    public CaseSpanProcessor() {
        CaseSpans.activate();
    }

    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {
        SpanContext parent = Span.fromContext(parentContext).getSpanContext();
        CaseSpans.assign(id(span.getSpanContext()), parent.isValid() ? id(parent) : null);
    }

    @Override
    public boolean isStartRequired() {
        return true;
    }

    @Override
    public void onEnd(ReadableSpan span) {
        CaseSpans.ended(id(span.getSpanContext()), () -> SpanConversion.traceSpan(span.toSpanData()));
    }

    @Override
    public boolean isEndRequired() {
        return true;
    }

    private static String id(SpanContext context) {
        return context.getTraceId() + context.getSpanId();
    }
}
