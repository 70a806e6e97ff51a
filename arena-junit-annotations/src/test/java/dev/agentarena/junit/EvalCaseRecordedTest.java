package dev.agentarena.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.internal.EvalCaseBuilder;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Trajectory;
import dev.agentarena.junit.tracing.TraceSpan;

/** A case's recorded run (trajectory, passages, spans): empty by default, kept by copies, part of equality. */
class EvalCaseRecordedTest {

    private static final Trajectory TRAJECTORY = Trajectory.of(List.of(new Trajectory.ToolStep(0,
            ToolCall.of("lookup_order", Map.of("id", "42")), "shipped", null, Duration.ZERO, false)));
    private static final RetrievedPassage PASSAGE = RetrievedPassage.of("doc-1", "Orders ship in 2 days.");
    private static final TraceSpan SPAN = new TraceSpan("0af7651916cd43dd8448eb211c80319c", "a000000000000001", "",
            "invoke_agent", TraceSpan.Kind.INTERNAL, 1, 2, TraceSpan.Status.UNSET, "", Map.of(), List.of());

    @Test
    void aCaseRecordsNothingUntilGivenARun() {
        EvalCase plain = EvalCase.of("a", "in", "ref");

        assertThat(plain.recordedTrajectory()).isSameAs(Trajectory.EMPTY);
        assertThat(plain.recordedRetrieved()).isEmpty();
        assertThat(plain.recordedSpans()).isEmpty();
        assertThat(plain.withRecordedSpans(List.of())).isEqualTo(plain);
    }

    @Test
    void theRecordedRunIsKeptByCopiesAndTheBuilder() {
        EvalCase recorded = EvalCase.recorded("a", "in", null, "out").withRecordedTrajectory(TRAJECTORY)
                .withRecordedRetrieved(List.of(PASSAGE)).withRecordedSpans(List.of(SPAN));

        EvalCase copied = recorded.withTags("prod").withWeight(2);
        EvalCase rebuilt = EvalCaseBuilder.from(recorded).build();

        assertThat(copied.recordedTrajectory()).isEqualTo(TRAJECTORY);
        assertThat(copied.recordedRetrieved()).containsExactly(PASSAGE);
        assertThat(copied.recordedSpans()).containsExactly(SPAN);
        assertThat(rebuilt).isEqualTo(recorded);
        assertThat(recorded).isNotEqualTo(EvalCase.recorded("a", "in", null, "out"));
    }
}
