package dev.agentarena.samples.options;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.ScorerOption;
import dev.agentarena.junit.UseModels;

/**
 * Review sentiment: the classification scorer of support triage, with labels of its own. The samples' arena.yaml
 * gives every eval the triage queues as labels; this eval's option wins over them, for its cases only. The answers
 * were recorded in production ({@code output} in {@code reviews.jsonl}): no model is called.
 */
@Eval(value = "review-sentiment", scorers = "classification")
@ScorerOption(scorer = "classification", name = "labels", value = {"positive", "negative", "neutral"})
@UseModels("recorded")
@EvalDataset("reviews.jsonl")
class ReviewSentimentEvalTest {
}
