package dev.agentarena.samples.failures;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.UseModels;

/**
 * A dataset file that is still empty, say because the export that fills it has not run yet. Zero cases would mean
 * zero tests and a green build; instead each model gets one failed test named after the file
 * ({@code sim_small/new-tickets[new-tickets.jsonl]/classification}), an error whose message starts with
 * {@code new-tickets.jsonl:1: no cases: the file is empty}, and a line in {@code results.jsonl}.
 *
 * <p>The samples' Surefire execution {@code empty-dataset} runs this class on its own (results in
 * {@code target/arena-empty-dataset}), so the other samples' leaderboard and baseline stay as they are;
 * {@code EmptyDatasetIT} reads what Surefire wrote. See {@code docs/guides/failures.md} for every kind of bad input.
 */
@Eval(value = "new-tickets", scorers = "classification")
@UseModels("sim_small")
@EvalDataset("new-tickets.jsonl")
class EmptyDatasetEvalTest {
}
