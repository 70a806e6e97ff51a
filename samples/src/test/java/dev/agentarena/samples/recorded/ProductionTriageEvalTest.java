package dev.agentarena.samples.recorded;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.UseModels;

/**
 * Scores outputs that were produced elsewhere (production logs, another framework's run, a batch API) without calling
 * any model: each row of {@code production-triage.jsonl} carries its {@code output}, and the {@code recorded} model
 * answers with it, at zero cost and latency. A row without an output is an error of that case, never a low score.
 */
@Eval(value = "production-triage", scorers = "exact_match")
@UseModels("recorded")
@EvalDataset("production-triage.jsonl")
class ProductionTriageEvalTest {
}
