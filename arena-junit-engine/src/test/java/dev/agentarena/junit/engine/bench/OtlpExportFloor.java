package dev.agentarena.junit.engine.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceId;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.common.InstrumentationLibraryInfo;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.data.StatusData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * The least that exporting a run's spans through the official SDK and OTLP exporter costs a fresh JVM, whatever
 * builds them: the peer benchmark's spans (an eval span; per case a case span with three {@code
 * gen_ai.evaluation.result} events and a {@code chat} child) exported to the endpoint the standard {@code OTEL_*}
 * settings name, with nothing else in the JVM. Timed from outside against {@code jvm} (this class doing nothing), it
 * is the floor under tracing's cost in docs/benchmarks.md.
 *
 * <p>Usage: {@code OtlpExportFloor jvm|tracer|exporter <cases>}: {@code tracer} configures the SDK as the engine does
 * (autoconfiguration, the batch processor) and builds the spans through its tracer; {@code exporter} takes only the
 * autoconfigured exporter and hands it the finished spans in batches, with no tracer or processor.
 */
public final class OtlpExportFloor {

    private static final AttributeKey<String> EVAL = AttributeKey.stringKey("arena.eval");
    private static final AttributeKey<String> MODEL = AttributeKey.stringKey("arena.model");
    private static final AttributeKey<String> DATASET = AttributeKey.stringKey("arena.dataset");
    private static final AttributeKey<String> CASE_ID = AttributeKey.stringKey("arena.case.id");
    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    private static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    private static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    private static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    private static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    private static final AttributeKey<String> EVALUATION = AttributeKey.stringKey("gen_ai.evaluation.name");
    private static final AttributeKey<String> STATUS = AttributeKey.stringKey("arena.result.status");
    private static final AttributeKey<Double> SCORE = AttributeKey.doubleKey("gen_ai.evaluation.score.value");
    private static final AttributeKey<String> LABEL = AttributeKey.stringKey("gen_ai.evaluation.score.label");
    private static final String[] SCORERS = {"label_exact", "label_contains", "label_format"};
    private static final int BATCH = 2048;

    private OtlpExportFloor() {
    }

    public static void main(String[] args) {
        int cases = Integer.parseInt(args[1]);
        if (args[0].equals("jvm")) {
            System.out.println("cases=0");
            return;
        }
        // the settings the engine adds under the user's (tracing/Tracing.OtelSettings)
        Map<String, String> defaults = Map.of("otel.service.name", "agent-arena", "otel.metrics.exporter", "none",
                "otel.logs.exporter", "none", "otel.bsp.max.queue.size", "65536",
                "otel.bsp.max.export.batch.size", String.valueOf(BATCH), "otel.bsp.schedule.delay", "1000");
        SpanExporter[] exporter = new SpanExporter[1];
        Resource[] resource = new Resource[1];
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                .addPropertiesSupplier(() -> defaults)
                .addSpanExporterCustomizer((configured, config) -> exporter[0] = configured)
                .addResourceCustomizer((configured, config) -> resource[0] = configured)
                .disableShutdownHook()
                .build()
                .getOpenTelemetrySdk();
        long start = TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis());
        if (args[0].equals("tracer")) {
            viaTracer(sdk.getTracer("dev.agentarena.junit"), cases, start);
        }
        else {
            viaExporter(exporter[0], resource[0], cases, start);
        }
        sdk.shutdown().join(30, TimeUnit.SECONDS);
        System.out.println("cases=" + cases);
    }

    private static void viaTracer(Tracer tracer, int cases, long start) {
        Span eval = tracer.spanBuilder("eval RoutingEvalTest").setNoParent()
                .setStartTimestamp(start, TimeUnit.NANOSECONDS).setAttribute(EVAL, "RoutingEvalTest").startSpan();
        for (int i = 0; i < cases; i++) {
            long end = start + 1_000_000;
            Span span = tracer.spanBuilder("case t-" + i).setParent(Context.root().with(eval))
                    .setStartTimestamp(start, TimeUnit.NANOSECONDS).setAllAttributes(caseAttributes(i)).startSpan();
            Span chat = tracer.spanBuilder("chat mock").setParent(Context.root().with(span))
                    .setSpanKind(SpanKind.CLIENT).setStartTimestamp(start, TimeUnit.NANOSECONDS)
                    .setAllAttributes(chatAttributes()).startSpan();
            chat.end(end, TimeUnit.NANOSECONDS);
            for (String scorer : SCORERS) {
                span.addEvent("gen_ai.evaluation.result", evaluation(scorer), end, TimeUnit.NANOSECONDS);
            }
            span.end(end, TimeUnit.NANOSECONDS);
        }
        eval.end(start + 1_000_000, TimeUnit.NANOSECONDS);
    }

    private static void viaExporter(SpanExporter exporter, Resource resource, int cases, long start) {
        InstrumentationScopeInfo scope = InstrumentationScopeInfo.create("dev.agentarena.junit");
        SplittableRandom random = new SplittableRandom(1);
        String trace = TraceId.fromLongs(random.nextLong(), random.nextLong());
        SpanContext eval = context(trace, random);
        long end = start + 1_000_000;
        List<SpanData> batch = new ArrayList<>(BATCH);
        for (int i = 0; i < cases; i++) {
            SpanContext span = context(trace, random);
            batch.add(new Finished("chat mock", SpanKind.CLIENT, context(trace, random), span, start, end,
                    chatAttributes(), List.of(), resource, scope));
            List<EventData> events = new ArrayList<>(SCORERS.length);
            for (String scorer : SCORERS) {
                events.add(EventData.create(end, "gen_ai.evaluation.result", evaluation(scorer)));
            }
            batch.add(new Finished("case t-" + i, SpanKind.INTERNAL, span, eval, start, end, caseAttributes(i),
                    events, resource, scope));
            if (batch.size() >= BATCH) {
                exporter.export(batch).join(30, TimeUnit.SECONDS);
                batch = new ArrayList<>(BATCH);
            }
        }
        batch.add(new Finished("eval RoutingEvalTest", SpanKind.INTERNAL, eval, SpanContext.getInvalid(), start, end,
                Attributes.of(EVAL, "RoutingEvalTest"), List.of(), resource, scope));
        exporter.export(batch).join(30, TimeUnit.SECONDS);
    }

    private static SpanContext context(String trace, SplittableRandom random) {
        return SpanContext.create(trace, SpanId.fromLong(random.nextLong() | 1), TraceFlags.getSampled(),
                TraceState.getDefault());
    }

    private static Attributes caseAttributes(int i) {
        return Attributes.of(EVAL, "RoutingEvalTest", MODEL, "mock", DATASET, "cases.jsonl", CASE_ID, "t-" + i);
    }

    private static Attributes chatAttributes() {
        return Attributes.builder().put(OPERATION, "chat").put(PROVIDER, "agent_arena").put(REQUEST_MODEL, "mock")
                .put(INPUT_TOKENS, 120L).put(OUTPUT_TOKENS, 4L).build();
    }

    private static Attributes evaluation(String scorer) {
        return Attributes.of(EVALUATION, scorer, STATUS, "passed", SCORE, 1.0, LABEL, "pass");
    }

    /** A span as the exporter receives it, made without a tracer. */
    private record Finished(String getName, SpanKind getKind, SpanContext getSpanContext,
            SpanContext getParentSpanContext, long getStartEpochNanos, long getEndEpochNanos,
            Attributes getAttributes, List<EventData> getEvents, Resource getResource,
            InstrumentationScopeInfo getInstrumentationScopeInfo) implements SpanData {

        @Override
        public StatusData getStatus() {
            return StatusData.unset();
        }

        @Override
        public List<LinkData> getLinks() {
            return List.of();
        }

        @Override
        public boolean hasEnded() {
            return true;
        }

        @Override
        public int getTotalRecordedEvents() {
            return getEvents.size();
        }

        @Override
        public int getTotalRecordedLinks() {
            return 0;
        }

        @Override
        public int getTotalAttributeCount() {
            return getAttributes.size();
        }

        @Override
        @SuppressWarnings("deprecation")
        public InstrumentationLibraryInfo getInstrumentationLibraryInfo() {
            return InstrumentationLibraryInfo.create(getInstrumentationScopeInfo.getName(), null);
        }
    }
}
