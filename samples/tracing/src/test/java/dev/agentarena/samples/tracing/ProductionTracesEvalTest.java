package dev.agentarena.samples.tracing;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * A Spring AI support app's production traces (its export, committed in {@code traces/}) read back as a dataset: each
 * trace a case whose recorded answer, tool calls and retrieved passages come from its spans, graded offline by the
 * {@code recorded} model: a judge of the answer ({@code answer_relevance}, on {@code sim_judge} unless
 * {@code arena.judge.model} names another), the tool steps ({@code tool_success}, {@code trajectory_efficiency}), the
 * retrieval ({@code faithfulness}: is the answer grounded in what was retrieved), and a span assertion of its own.
 */
// tag::production-traces[]
@Eval(value = "production-traces",
        scorers = {"answer_relevance", "tool_success", "trajectory_efficiency", "faithfulness"})
@UseModels("recorded")
@EvalDataset("/traces/spring-ai-support.otlp.jsonl")
class ProductionTracesEvalTest {

    /** No span of the conversation failed, and every model call took under five seconds. */
    @Scorer("healthy_spans")
    ScoreResult healthySpans(ScoringContext context) {
        for (TraceSpan span : context.spans()) {
            if (span.isError()) {
                return ScoreResult.fail("span '" + span.name() + "' failed: " + span.statusMessage());
            }
            if (span.operationName().filter("chat"::equals).isPresent() && span.duration().toSeconds() >= 5) {
                return ScoreResult.fail("span '" + span.name() + "' took " + span.duration());
            }
        }
        return ScoreResult.pass(context.spans().size() + " spans, none failed");
    }
}
// end::production-traces[]
