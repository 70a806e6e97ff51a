package dev.agentarena.junit.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.TaskOutput;

class TraceSpanTest {

    private static TraceSpan span(long start, long end, Map<String, Object> attributes) {
        return new TraceSpan("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", "", "chat gpt-4o",
                TraceSpan.Kind.CLIENT, start, end, TraceSpan.Status.ERROR, null, attributes, null);
    }

    @Test
    void attributesKeepOpenTelemetrysTypesWideningSmallNumbers() {
        Map<String, Object> attributes = new HashMap<>();
        attributes.put("gen_ai.usage.input_tokens", 12);
        attributes.put("gen_ai.request.temperature", 0.5f);
        attributes.put("gen_ai.response.finish_reasons", List.of("stop", 1));
        attributes.put(TraceSpan.OPERATION_NAME, "chat");

        TraceSpan span = span(1_000, 3_000, attributes);

        assertThat(span.attribute("gen_ai.usage.input_tokens")).contains(12L);
        assertThat(span.attribute("gen_ai.request.temperature")).contains(0.5);
        assertThat(span.attribute("gen_ai.response.finish_reasons")).contains(List.of("stop", 1L));
        assertThat(span.operationName()).contains("chat");
        assertThat(span.duration()).isEqualTo(Duration.ofNanos(2_000));
        assertThat(span.isRoot()).isTrue();
        assertThat(span.isError()).isTrue();
        assertThat(span.statusMessage()).isEmpty();
        assertThatThrownBy(() -> span.attributes().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aSpanEndingBeforeItStartsOrWithAnObjectAttributeIsRefusedByName() {
        assertThatThrownBy(() -> span(5, 4, Map.of())).hasMessageContaining("'chat gpt-4o'")
                .hasMessageContaining("ends before it starts");
        assertThatThrownBy(() -> span(1, 2, Map.of("payload", new Object()))).hasMessageContaining("'payload'")
                .hasMessageContaining("string, long, double, boolean");
        assertThatThrownBy(() -> span(1, 2, Map.of("nested", List.of(List.of("a")))))
                .hasMessageContaining("nested list");
    }

    @Test
    void anOutputsSpansAreACopyThatOtherCopiesKeep() {
        List<TraceSpan> spans = new ArrayList<>(List.of(span(1, 2, Map.of())));
        TaskOutput output = TaskOutput.of("answer").withSpans(spans);
        spans.clear();

        assertThat(output.spans()).hasSize(1);
        assertThat(output.withText("other").plusUsage(1, 1, 0.0).withMetric("m", 1).spans()).hasSize(1);
        assertThat(TaskOutput.of("x").spans()).isEmpty();
    }
}
