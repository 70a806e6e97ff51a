package dev.agentarena.junit.engine.traces;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.internal.EvalCaseBuilder;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * A trace as a case: its id, the conversation's input, the final answer as the recorded output, and what the run did
 * on the way (trajectory, retrieved passages, spans), all through {@link GenAiSpans}.
 *
 * <p>The id is the root span's {@code arena.case.id} when it has one (set it in the application to keep a case's id
 * across exports), else the trace id. The metadata holds {@code trace_id}, the root span's name ({@code root_span})
 * and, when the root has them, {@code session_id} ({@code session.id}, {@code gen_ai.conversation.id} or Spring AI's
 * {@code spring.ai.chat.client.conversation.id}) and
 * {@code user_id} ({@code user.id}).
 */
final class TraceCases {

    /**
     * The root span's attribute that names the case: the one the engine's own exported case spans carry, so that a
     * run exported and read back keeps its case ids. A span attribute, not a configuration key.
     */
    static final String CASE_ID = "arena" + '.' + "case.id";

    private TraceCases() {
    }

    static ReadTrace read(String traceId, List<TraceSpan> spans, int line) {
        TraceSpan root = null;
        for (TraceSpan span : spans) {
            if (span.isRoot()) {
                root = span;
                break;
            }
        }
        String id = traceId;
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("trace_id", traceId);
        if (root != null) {
            Object named = root.attributes().get(CASE_ID);
            if (named instanceof String text && !text.isBlank()) {
                id = text.strip();
            }
            metadata.put("root_span", root.name());
            Object session = root.attributes().getOrDefault("session.id", root.attributes().getOrDefault(
                    "gen_ai.conversation.id", root.attributes().get("spring.ai.chat.client.conversation.id")));
            if (session != null) {
                metadata.put("session_id", String.valueOf(session));
            }
            if (root.attributes().get("user.id") != null) {
                metadata.put("user_id", String.valueOf(root.attributes().get("user.id")));
            }
        }
        EvalCase evalCase = EvalCaseBuilder.of(id, GenAiSpans.inputText(spans).orElse(null), null)
                .metadata(metadata)
                .recordedOutput(GenAiSpans.outputText(spans).orElse(null))
                .recorded(GenAiSpans.trajectory(spans), GenAiSpans.passages(spans), spans)
                .build();
        return new ReadTrace(id, evalCase, null, line);
    }
}
