package dev.agentarena.samples.integrations.langchain4j;

import java.util.Locale;
import java.util.Map;

import dev.langchain4j.model.chat.listener.ChatModelErrorContext;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.listener.ChatModelRequestContext;
import dev.langchain4j.model.chat.listener.ChatModelResponseContext;
import dev.langchain4j.model.chat.response.ChatResponse;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;

/**
 * A listener-based instrumentation of LangChain4j chat models, as an app adds one (LangChain4j core has no
 * OpenTelemetry of its own; {@code langchain4j-observation}'s {@code ObservationChatModelListener} and OpenInference's
 * listener work the same way): a client span per model call, named and attributed after the GenAI semantic
 * conventions ({@code gen_ai.operation.name}, {@code gen_ai.provider.name}, the request and response model, token
 * usage, finish reason), current while the call runs.
 */
public final class GenAiSpansListener implements ChatModelListener {

    private static final String SPAN = "genAiSpan";
    private static final String SCOPE = "genAiScope";

    private final Tracer tracer;

    public GenAiSpansListener(Tracer tracer) {
        this.tracer = tracer;
    }

    @Override
    public void onRequest(ChatModelRequestContext context) {
        String model = context.chatRequest().modelName();
        SpanBuilder builder = tracer.spanBuilder(model == null ? "chat" : "chat " + model).setSpanKind(SpanKind.CLIENT)
                .setAttribute("gen_ai.operation.name", "chat")
                .setAttribute("gen_ai.provider.name", context.modelProvider().name().toLowerCase(Locale.ROOT));
        if (model != null) {
            builder.setAttribute("gen_ai.request.model", model);
        }
        Span span = builder.startSpan();
        context.attributes().put(SPAN, span);
        context.attributes().put(SCOPE, span.makeCurrent());
    }

    @Override
    public void onResponse(ChatModelResponseContext context) {
        Span span = (Span) context.attributes().get(SPAN);
        if (span == null) {
            return;
        }
        ChatResponse response = context.chatResponse();
        if (response.modelName() != null) {
            span.setAttribute("gen_ai.response.model", response.modelName());
        }
        if (response.tokenUsage() != null && response.tokenUsage().inputTokenCount() != null) {
            span.setAttribute("gen_ai.usage.input_tokens", response.tokenUsage().inputTokenCount());
            span.setAttribute("gen_ai.usage.output_tokens", response.tokenUsage().outputTokenCount());
        }
        if (response.finishReason() != null) {
            span.setAttribute("gen_ai.response.finish_reasons", response.finishReason().name().toLowerCase(Locale.ROOT));
        }
        end(context.attributes(), span);
    }

    @Override
    public void onError(ChatModelErrorContext context) {
        Span span = (Span) context.attributes().get(SPAN);
        if (span != null) {
            span.recordException(context.error());
            span.setStatus(StatusCode.ERROR, String.valueOf(context.error().getMessage()));
            end(context.attributes(), span);
        }
    }

    private static void end(Map<Object, Object> attributes, Span span) {
        Object scope = attributes.remove(SCOPE);
        if (scope instanceof Scope current) {
            current.close();
        }
        span.end();
    }
}
