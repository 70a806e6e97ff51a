package dev.agentarena.junit.engine.scoring.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.scoring.TestScoringContext;
import dev.agentarena.junit.tracing.TraceSpan;

/** The trace scorers on spans made here: counts, durations and errors of the spans a glob selects. */
class TraceScorersTest {

    private static final long START = 1_700_000_000_000_000_000L;

    private static TraceSpan span(int index, String name, long millis, boolean error) {
        long start = START + index * 1_000_000_000L;
        return new TraceSpan("0af7651916cd43dd8448eb211c80319c", String.format("%016x", index + 1), "", name,
                TraceSpan.Kind.CLIENT, start, start + millis * 1_000_000L,
                error ? TraceSpan.Status.ERROR : TraceSpan.Status.OK, error ? "timeout" : "", Map.of(), List.of());
    }

    private static TestScoringContext context(String scorer, List<TraceSpan> spans) {
        return TestScoringContext.forScorer(scorer).withOutput(TaskOutput.of("done").withSpans(spans));
    }

    private static final List<TraceSpan> AGENT = List.of(span(0, "chat gpt-4o", 800, false),
            span(1, "execute_tool lookup_order", 40, true), span(2, "Chat GPT-4o", 200, false),
            span(3, "execute_tool refund", 10, false));

    @Test
    void countsTheSpansTheGlobSelectsInAnyCase() {
        ScoreResult two = TraceScorers.spanCount(context("trace_span_count", AGENT).with("name", "chat *")
                .with("min", 2).with("max", 2));
        ScoreResult tooMany = TraceScorers.spanCount(context("trace_span_count", AGENT).with("name", "execute_tool ?*")
                .with("max", 1));

        assertThat(two.passed()).isTrue();
        assertThat(two.reason()).isEqualTo("2 spans matching 'chat *' of 4; expected exactly 2");
        assertThat(tooMany.passed()).isFalse();
        assertThat(tooMany.reason()).isEqualTo("2 spans matching 'execute_tool ?*' of 4; expected exactly 1");
    }

    @Test
    void aDurationIsTheLongestOrThePercentileByNearestRank() {
        ScoreResult longest = TraceScorers.spanDuration(context("trace_span_duration", AGENT).with("max_ms", 500));
        ScoreResult median = TraceScorers.spanDuration(context("trace_span_duration", AGENT).with("max_ms", 50)
                .with("percentile", 50));

        assertThat(longest.passed()).isFalse();
        assertThat(longest.reason()).isEqualTo("the longest of 4 spans matching '*' ('chat gpt-4o') took 800 ms; "
                + "at most 500 ms allowed");
        // durations 10, 40, 200, 800: the 2nd of 4 is p50
        assertThat(median.passed()).isTrue();
        assertThat(median.reason()).startsWith("p50 of 4 spans matching '*' took 40 ms");
    }

    @Test
    void errorSpansAreCountedAndTheFirstNamed() {
        ScoreResult none = TraceScorers.errorSpans(context("trace_error_spans", AGENT));
        ScoreResult allowed = TraceScorers.errorSpans(context("trace_error_spans", AGENT).with("max_count", 1));
        ScoreResult chat = TraceScorers.errorSpans(context("trace_error_spans", AGENT).with("name", "chat*"));

        assertThat(none.passed()).isFalse();
        assertThat(none.reason()).isEqualTo("1 of 4 spans matching '*' ended in error; at most 0 allowed (first: "
                + "'execute_tool lookup_order', timeout)");
        assertThat(allowed.passed()).isTrue();
        assertThat(chat.passed()).isTrue();
    }

    @Test
    void aCaseWithoutSpansIsAnErrorNotAPass() {
        assertThatThrownBy(() -> TraceScorers.spanCount(context("trace_span_count", List.of()).with("min", 0)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("none were captured for case 'case_1'");
    }

    @Test
    void optionsOutOfRangeAreErrorsNamingTheOption() {
        assertThatThrownBy(() -> TraceScorers.spanCount(context("trace_span_count", AGENT).with("min", 3)
                .with("max", 1))).hasMessageContaining("'max'");
        assertThatThrownBy(() -> TraceScorers.spanDuration(context("trace_span_duration", AGENT)))
                .hasMessageContaining("max_ms");
        assertThatThrownBy(() -> TraceScorers.spanDuration(context("trace_span_duration", AGENT).with("max_ms", 1)
                .with("percentile", 0))).hasMessageContaining("'percentile'");
    }

    @Test
    void aGlobOverAHostileNameTakesLinearSteps() {
        String name = "a".repeat(200_000) + "\u0000\u001b[2J";
        List<TraceSpan> spans = new ArrayList<>();
        spans.add(span(0, name, 1, false));

        long cpu = threadCpuNanos();
        ScoreResult result = TraceScorers.spanCount(context("trace_span_count", spans)
                .with("name", "*a*a*a*a*a*a*a*a*b"));
        long spent = threadCpuNanos() - cpu;

        assertThat(result.passed()).isFalse();
        // a backtracking regular expression takes hours here; the walk, well under a CPU second
        assertThat(spent).isLessThan(5_000_000_000L);
        assertThat(TraceScorers.Selection.matches("*\u001b[2J", name)).isTrue();
        assertThat(TraceScorers.Selection.matches("a*b", "ab*")).isFalse();
        assertThat(TraceScorers.Selection.matches("*", "")).isTrue();
    }

    private static long threadCpuNanos() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }
}
