package dev.agentarena.junit.engine.tracing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.reporting.RunListener;
import dev.agentarena.junit.engine.reporting.RunReport;
import dev.agentarena.junit.engine.reporting.RunningDataset;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.engine.results.TrajectoryRecord;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * The run's results as GenAI spans, exported by an SDK of its own (configured from the standard settings, never the
 * global one): an {@code eval <eval>} span per eval; under it a {@code case <id>} span per case, model and repeat with
 * the engine's {@code arena.*} attributes and one {@code gen_ai.evaluation.result} event per score; under that a
 * {@code chat <model>} span per model call and an {@code execute_tool <name>} span per tool execution, in the
 * trajectory's order.
 *
 * <p>The SDK is configured on the tracer's own thread, its first task, so that loading it overlaps the run's first
 * cases; a case's spans are built there too, after it, once every result of the case was reported
 * ({@link #caseFinished}), from its recorded steps and timings, ending when its first result was computed: they are
 * not live while its task runs. Texts (only with content capture on) are the results' own, masked by the core, cut at
 * the run's text limit. Nothing here throws into the run: an SDK that cannot be configured, and a failing exporter,
 * are each told once as a warning.
 */
final class OtelRunTracer implements RunListener {

    static final String SCOPE = "dev.agentarena.junit";
    static final String EVALUATION_EVENT = "gen_ai.evaluation.result";
    /** The namespace of the engine's own attributes (not configuration keys). */
    static final String ENGINE = "arena" + '.';
    static final String EXPORTER_LOG = "io.opentelemetry.exporter.otlp.internal";

    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    private static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    private static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    private static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    private static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    private static final AttributeKey<String> INPUT_MESSAGES = AttributeKey.stringKey("gen_ai.input.messages");
    private static final AttributeKey<String> OUTPUT_MESSAGES = AttributeKey.stringKey("gen_ai.output.messages");
    private static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    private static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
    private static final AttributeKey<String> TOOL_ARGUMENTS = AttributeKey.stringKey("gen_ai.tool.call.arguments");
    private static final AttributeKey<String> TOOL_RESULT = AttributeKey.stringKey("gen_ai.tool.call.result");
    private static final AttributeKey<String> EVALUATION_NAME = AttributeKey.stringKey("gen_ai.evaluation.name");
    private static final AttributeKey<Double> SCORE_VALUE = AttributeKey.doubleKey("gen_ai.evaluation.score.value");
    private static final AttributeKey<String> SCORE_LABEL = AttributeKey.stringKey("gen_ai.evaluation.score.label");
    private static final AttributeKey<String> EXPLANATION = AttributeKey.stringKey("gen_ai.evaluation.explanation");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    /** An exception's class name at the start of an error text, as Java prints one. */
    private static final Pattern EXCEPTION_TYPE = Pattern.compile(
            "((?:[A-Za-z_$][A-Za-z0-9_$]{0,100}\\.){0,20}[A-Z][A-Za-z0-9_$]{0,100}(?:Exception|Error))(?::|$)");

    private static final AttributeKey<String> EVAL = AttributeKey.stringKey(ENGINE + "eval");
    private static final AttributeKey<String> MODEL = AttributeKey.stringKey(ENGINE + "model");
    private static final AttributeKey<String> DATASET = AttributeKey.stringKey(ENGINE + "dataset");
    private static final AttributeKey<String> CASE_ID = AttributeKey.stringKey(ENGINE + "case.id");
    private static final AttributeKey<Long> REPEAT = AttributeKey.longKey(ENGINE + "case.repeat");
    private static final AttributeKey<List<String>> TAGS = AttributeKey.stringArrayKey(ENGINE + "case.tags");
    private static final AttributeKey<Double> COST = AttributeKey.doubleKey(ENGINE + "cost_usd");
    private static final AttributeKey<String> OUTPUT = AttributeKey.stringKey(ENGINE + "case.output");
    private static final AttributeKey<Long> OMITTED = AttributeKey.longKey(ENGINE + "trajectory.omitted_steps");
    private static final AttributeKey<Boolean> REPLAYED = AttributeKey.booleanKey(ENGINE + "replayed");
    private static final AttributeKey<Boolean> FIXED = AttributeKey.booleanKey(ENGINE + "tool.fixed");
    private static final AttributeKey<String> RESULT_STATUS = AttributeKey.stringKey(ENGINE + "result.status");

    /** Set by the builder's first task; null until then, and for good if the settings were refused. */
    private volatile OpenTelemetrySdk sdk;
    /** The SDK's tracer, set with it: used only on the builder's thread, after that first task. */
    private Tracer tracer;
    private final boolean content;
    private final int textLimit;
    /** Wall-clock nanoseconds at {@link #originNanos}, so that span times follow the monotonic clock. */
    private final long originEpochNanos = TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis());
    private final long originNanos = System.nanoTime();
    /** The open eval spans, by eval name: ended when the run ends. */
    private final Map<String, Span> evals = new ConcurrentHashMap<>();
    /** When each case's first result was computed: where its span ends. */
    private final Map<CaseKey, Long> computed = new ConcurrentHashMap<>();
    /** The reported results of the cases not yet finished, by dataset run, in order. */
    private final Map<RunningDataset, Map<CaseKey, PendingCase>> pending = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    /**
     * Where a finished case's spans are built, one case after the other: off the reporting thread, which every test
     * waits for.
     */
    private final ExecutorService builder = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "arena-tracing");
        thread.setDaemon(true);
        return thread;
    });
    /**
     * The OTLP exporters' own log, which reports every failed export with its stack trace: quiet while the run's SDK
     * lives (its first failure is the run's one warning), unless the user set its level; null when left as it was.
     */
    private final Logger quietened;

    private OtelRunTracer(boolean content, int textLimit) {
        this.content = content;
        this.textLimit = textLimit;
        Logger exporterLog = Logger.getLogger(EXPORTER_LOG);
        this.quietened = exporterLog.getLevel() == null ? exporterLog : null;
        if (quietened != null) {
            quietened.setLevel(Level.OFF);
        }
    }

    /**
     * A tracer on an SDK configured from the standard settings over {@code properties} on the tracer's thread, its
     * exporter telling its first failure to {@code warnings}; settings the SDK refuses are told there too, as
     * {@code notConfigured} words it, and the run then has no spans.
     */
    static OtelRunTracer start(Map<String, String> properties, boolean content, int textLimit,
            Consumer<String> warnings, Function<Throwable, String> notConfigured) {
        OtelRunTracer tracer = new OtelRunTracer(content, textLimit);
        tracer.build(() -> {
            try {
                tracer.sdk = AutoConfiguredOpenTelemetrySdk.builder()
                        .addPropertiesSupplier(() -> properties)
                        .addSpanExporterCustomizer((exporter, config) -> new WarnOnce(exporter, warnings))
                        .disableShutdownHook()
                        .build()
                        .getOpenTelemetrySdk();
                tracer.tracer = tracer.sdk.getTracer(SCOPE);
            }
            catch (RuntimeException | LinkageError e) {
                // a bad OTEL_* value, an exporter named but missing
                tell(warnings, notConfigured.apply(e));
            }
        });
        return tracer;
    }

    @Override
    public void resultComputed(ResultRecord record, CaseTranscript transcript) {
        computed.putIfAbsent(CaseKey.of(record), now());
    }

    @Override
    public void resultReported(ResultRecord record, CaseTranscript transcript) {
        Map<CaseKey, PendingCase> cases = pending.computeIfAbsent(
                new RunningDataset(record.eval(), record.model(), record.dataset()), key -> new LinkedHashMap<>());
        synchronized (cases) {
            cases.computeIfAbsent(CaseKey.of(record), key -> new PendingCase(transcript)).records.add(record);
        }
    }

    @Override
    public void casesStarted(RunningDataset dataset) {
        long start = now();
        build(() -> {
            if (tracer != null) {
                evalSpan(dataset.eval(), start);
            }
        });
    }

    @Override
    public void caseFinished(RunningDataset dataset, int errors, double costUsd) {
        flush(pending.get(dataset));
    }

    @Override
    public void runFinished(RunReport report) {
        endAll();
    }

    /**
     * Ends every open span with the cases still pending (results of no finished case), waits for their spans to be
     * built, and shuts the SDK down.
     */
    void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                endAll();
                builder.shutdown();
                builder.awaitTermination(10, TimeUnit.SECONDS);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            finally {
                if (sdk != null) {
                    sdk.shutdown().join(10, TimeUnit.SECONDS);
                }
                if (quietened != null) {
                    quietened.setLevel(null);
                }
            }
        }
    }

    private void endAll() {
        pending.values().forEach(this::flush);
        long end = now();
        build(() -> {
            evals.values().removeIf(span -> {
                span.end(end, TimeUnit.NANOSECONDS);
                return true;
            });
            computed.clear();
        });
    }

    /** Runs on the builder's thread, after what was handed to it before; on this one once it is shut down. */
    private void build(Runnable work) {
        try {
            builder.execute(work);
        }
        catch (RejectedExecutionException e) {
            work.run();
        }
    }

    private void flush(Map<CaseKey, PendingCase> cases) {
        if (cases == null) {
            return;
        }
        List<Map.Entry<CaseKey, PendingCase>> done;
        synchronized (cases) {
            if (cases.isEmpty()) {
                return;
            }
            done = new ArrayList<>(cases.entrySet());
            cases.clear();
        }
        build(() -> {
            if (tracer == null) {
                return;
            }
            for (Map.Entry<CaseKey, PendingCase> entry : done) {
                try {
                    emit(entry.getKey(), entry.getValue());
                }
                catch (RuntimeException e) {
                    // a span that cannot be built is not worth a run: the case's results are written regardless
                }
            }
        });
    }

    private long now() {
        return originEpochNanos + (System.nanoTime() - originNanos);
    }

    private Span evalSpan(String eval, long start) {
        return evals.computeIfAbsent(eval, name -> tracer.spanBuilder("eval " + name)
                .setNoParent()
                .setSpanKind(SpanKind.INTERNAL)
                .setStartTimestamp(start, TimeUnit.NANOSECONDS)
                .setAttribute(EVAL, name)
                .startSpan());
    }

    /** A case's span, its steps' spans and its scores' events, laid out backwards from when it was computed. */
    private void emit(CaseKey key, PendingCase pending) {
        Long computedAt = computed.remove(key);
        long end = computedAt == null ? now() : computedAt;
        ResultRecord first = pending.records.get(0);
        TrajectoryRecord trajectory = pending.transcript.trajectory();
        List<Map<String, Object>> steps = trajectory == null ? List.of() : trajectory.steps();
        long duration = 0;
        for (Map<String, Object> step : steps) {
            duration += stepNanos(step);
        }
        boolean singleCall = trajectory == null && pending.transcript.prompt() != null;
        if (singleCall) {
            duration = millis(first.latencyMs()) + millis(first.queueMs());
        }
        long start = end - duration;
        Span eval = evalSpan(key.eval(), start);
        Span span = tracer.spanBuilder("case " + key.caseId())
                .setParent(Context.root().with(eval))
                .setSpanKind(SpanKind.INTERNAL)
                .setStartTimestamp(start, TimeUnit.NANOSECONDS)
                .setAllAttributes(caseAttributes(key, first))
                .startSpan();
        Context parent = Context.root().with(span);
        if (singleCall) {
            Span chat = chat(parent, key.model(), start, first.tokensIn(), first.tokensOut(), first.cached(),
                    pending.transcript.prompt(), pending.transcript.rawOutput(), null);
            endStep(chat, first.output() == null ? first.error() : null, end);
        }
        long at = start;
        for (int i = 0; i < steps.size(); i++) {
            Map<String, Object> step = steps.get(i);
            long stepEnd = at + stepNanos(step);
            Object type = step.get("type");
            if (TrajectoryRecord.OMITTED.equals(type)) {
                span.setAttribute(OMITTED, number(step.get("steps")));
            }
            else if ("tool".equals(type)) {
                Span tool = tool(parent, step, at);
                endStep(tool, step.get("error") == null ? null : String.valueOf(step.get("error")), stepEnd);
            }
            else {
                Object model = step.get("model");
                Span chat = chat(parent, model == null ? key.model() : String.valueOf(model), at,
                        number(step.get("tokens_in")), number(step.get("tokens_out")),
                        Boolean.TRUE.equals(step.get("replayed")), step.get("sent"), step.get("text"),
                        step.get("tool_calls"));
                boolean lastFailed = i == steps.size() - 1 && first.output() == null;
                endStep(chat, lastFailed ? first.error() : null, stepEnd);
            }
            at = stepEnd;
        }
        String error = null;
        for (ResultRecord record : pending.records) {
            span.addEvent(EVALUATION_EVENT, evaluation(record), end, TimeUnit.NANOSECONDS);
            if (record.status() == ResultStatus.ERROR && error == null) {
                error = record.error() == null ? "error" : record.error();
            }
        }
        if (error != null) {
            span.setStatus(StatusCode.ERROR, cut(error));
        }
        span.end(end, TimeUnit.NANOSECONDS);
    }

    private Attributes caseAttributes(CaseKey key, ResultRecord first) {
        AttributesBuilder attributes = Attributes.builder()
                .put(EVAL, key.eval())
                .put(MODEL, key.model())
                .put(DATASET, key.dataset())
                .put(CASE_ID, key.caseId());
        if (key.repeat() > 0) {
            attributes.put(REPEAT, key.repeat());
        }
        if (!first.tags().isEmpty()) {
            attributes.put(TAGS, first.tags());
        }
        if (first.costUsd() > 0) {
            attributes.put(COST, first.costUsd());
        }
        if (content && first.output() != null) {
            attributes.put(OUTPUT, cut(first.output()));
        }
        return attributes.build();
    }

    private Attributes evaluation(ResultRecord record) {
        AttributesBuilder attributes = Attributes.builder()
                .put(EVALUATION_NAME, record.scorer())
                .put(RESULT_STATUS, record.status().name().toLowerCase(Locale.ROOT));
        if (record.score() != null) {
            attributes.put(SCORE_VALUE, record.score());
        }
        if (record.passed() != null) {
            attributes.put(SCORE_LABEL, record.passed() ? "pass" : "fail");
        }
        String explanation = record.error() != null ? record.error() : record.reason();
        if (explanation != null && !explanation.isEmpty()) {
            attributes.put(EXPLANATION, cut(explanation));
        }
        return attributes.build();
    }

    private Span chat(Context parent, String model, long start, long tokensIn, long tokensOut, boolean replayed,
            Object sent, Object answer, Object toolCalls) {
        int colon = model.indexOf(':');
        SpanBuilder builder = tracer.spanBuilder("chat " + model)
                .setParent(parent)
                .setSpanKind(SpanKind.CLIENT)
                .setStartTimestamp(start, TimeUnit.NANOSECONDS)
                .setAttribute(OPERATION, "chat")
                .setAttribute(PROVIDER, colon > 0 ? model.substring(0, colon) : "agent_arena")
                .setAttribute(REQUEST_MODEL, colon > 0 ? model.substring(colon + 1) : model)
                .setAttribute(INPUT_TOKENS, tokensIn)
                .setAttribute(OUTPUT_TOKENS, tokensOut);
        if (replayed) {
            builder.setAttribute(REPLAYED, true);
        }
        if (content) {
            if (sent != null) {
                builder.setAttribute(INPUT_MESSAGES, messages("user", sent, null));
            }
            if (answer != null || toolCalls != null) {
                builder.setAttribute(OUTPUT_MESSAGES, messages("assistant", answer, toolCalls));
            }
        }
        return builder.startSpan();
    }

    private Span tool(Context parent, Map<String, Object> step, long start) {
        String name = String.valueOf(step.get("name"));
        SpanBuilder builder = tracer.spanBuilder("execute_tool " + name)
                .setParent(parent)
                .setSpanKind(SpanKind.INTERNAL)
                .setStartTimestamp(start, TimeUnit.NANOSECONDS)
                .setAttribute(OPERATION, "execute_tool")
                .setAttribute(TOOL_NAME, name);
        if (step.get("id") != null) {
            builder.setAttribute(TOOL_CALL_ID, String.valueOf(step.get("id")));
        }
        if (Boolean.TRUE.equals(step.get("fixed"))) {
            builder.setAttribute(FIXED, true);
        }
        if (content) {
            if (step.get("arguments") != null) {
                builder.setAttribute(TOOL_ARGUMENTS, cut(Json.text(step.get("arguments"))));
            }
            if (step.get("result") != null) {
                builder.setAttribute(TOOL_RESULT, cut(Json.text(step.get("result"))));
            }
        }
        return builder.startSpan();
    }

    private void endStep(Span span, String error, long end) {
        if (error != null) {
            span.setStatus(StatusCode.ERROR, cut(error));
            span.setAttribute(ERROR_TYPE, errorType(error));
        }
        span.end(end, TimeUnit.NANOSECONDS);
    }

    /**
     * The conventions' {@code error.type}: the exception's class when the error text starts with one
     * ({@code java.net.SocketTimeoutException: ...}), else {@code _OTHER}, their value for an error of no known type.
     */
    static String errorType(String error) {
        Matcher exception = EXCEPTION_TYPE.matcher(error);
        return exception.lookingAt() ? exception.group(1) : "_OTHER";
    }

    /**
     * GenAI's message list ({@code gen_ai.input.messages}, {@code gen_ai.output.messages}): the messages a step sent
     * (the trajectory's {@code {role, content, tool_call_id}} maps) or one message of the role, each with its text
     * part and tool calls or tool response, as JSON.
     */
    private String messages(String role, Object sent, Object toolCalls) {
        List<Map<String, Object>> messages = new ArrayList<>();
        if (sent instanceof Collection<?> many && many.stream().allMatch(item -> item instanceof Map<?, ?>)) {
            for (Object item : many) {
                Map<?, ?> message = (Map<?, ?>) item;
                Object from = message.get("role");
                messages.add(message(from == null ? role : String.valueOf(from), message.get("content"),
                        message.get("tool_calls"), message.get("tool_call_id")));
            }
        }
        else {
            messages.add(message(role, sent, toolCalls, null));
        }
        return Json.write(messages);
    }

    private Map<String, Object> message(String role, Object text, Object toolCalls, Object responseTo) {
        List<Map<String, Object>> parts = new ArrayList<>();
        if (responseTo != null) {
            parts.add(part("tool_call_response", "id", responseTo, "response", cut(Json.text(text))));
        }
        else if (text != null && !Json.text(text).isEmpty()) {
            parts.add(part("text", "content", cut(Json.text(text)), null, null));
        }
        if (toolCalls instanceof Collection<?> calls) {
            for (Object call : calls) {
                if (call instanceof Map<?, ?> asked) {
                    Map<String, Object> part = part("tool_call", "id", asked.get("id"), "name", asked.get("name"));
                    String arguments = Json.write(asked.get("arguments"));
                    part.put("arguments", arguments.length() > textLimit && textLimit > 0 ? cut(arguments)
                            : asked.get("arguments"));
                    parts.add(part);
                }
            }
        }
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("role", role);
        message.put("parts", parts);
        return message;
    }

    private static Map<String, Object> part(String type, String key, Object value, String otherKey, Object other) {
        Map<String, Object> part = new LinkedHashMap<>();
        part.put("type", type);
        part.put(key, value);
        if (otherKey != null) {
            part.put(otherKey, other);
        }
        return part;
    }

    private String cut(String text) {
        return textLimit > 0 && text.length() > textLimit ? text.substring(0, textLimit - 1) + "…" : text;
    }

    private static long stepNanos(Map<String, Object> step) {
        Object millis = step.containsKey("latency_ms") ? step.get("latency_ms") : step.get("duration_ms");
        return TimeUnit.MILLISECONDS.toNanos(Math.max(0, number(millis)));
    }

    private static long millis(Long millis) {
        return millis == null ? 0 : TimeUnit.MILLISECONDS.toNanos(Math.max(0, millis));
    }

    private static long number(Object value) {
        return value instanceof Number number ? number.longValue() : 0;
    }

    private static void tell(Consumer<String> warnings, String warning) {
        try {
            warnings.accept(warning);
        }
        catch (RuntimeException e) {
            // a warning that cannot be told is dropped: spans never fail a run
        }
    }

    /** One case of one model and dataset, one repeat of it. */
    record CaseKey(String eval, String model, String dataset, String caseId, int repeat) {
        static CaseKey of(ResultRecord record) {
            return new CaseKey(record.eval(), record.model(), record.dataset(), record.caseId(), record.repeat());
        }
    }

    /** A case's results reported so far, and the transcript they share. */
    private static final class PendingCase {
        final CaseTranscript transcript;
        final List<ResultRecord> records = new ArrayList<>(4);

        PendingCase(CaseTranscript transcript) {
            this.transcript = transcript;
        }
    }

    /** The configured exporter, its first failure told as one warning; later ones only by OpenTelemetry's log. */
    private static final class WarnOnce implements SpanExporter {
        private final SpanExporter exporter;
        private final Consumer<String> warnings;
        private final AtomicBoolean warned = new AtomicBoolean();

        WarnOnce(SpanExporter exporter, Consumer<String> warnings) {
            this.exporter = exporter;
            this.warnings = warnings;
        }

        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            CompletableResultCode result = exporter.export(spans);
            result.whenComplete(() -> {
                if (!result.isSuccess() && warned.compareAndSet(false, true)) {
                    Throwable cause = result.getFailureThrowable();
                    tell(warnings, "tracing: the run's spans could not be exported (" + exporter + ")"
                            + (cause == null ? "" : ": " + cause.getMessage())
                            + "; the run goes on, and later failures are not told again");
                }
            });
            return result;
        }

        @Override
        public CompletableResultCode flush() {
            return exporter.flush();
        }

        @Override
        public CompletableResultCode shutdown() {
            return exporter.shutdown();
        }

        @Override
        public String toString() {
            return exporter.toString();
        }
    }
}
