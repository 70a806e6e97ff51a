package dev.agentarena.samples.options;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.UseModels;

/**
 * Ticket urgency: classification once more, with the labels low, medium and high from this eval's block of the
 * samples' arena.yaml ({@code evals: ticket-urgency: scorers: options: ...}), over the triage queues every other
 * eval gets. The answers were recorded in production ({@code output} in {@code urgency.yaml}).
 */
@Eval(value = "ticket-urgency", scorers = "classification")
@UseModels("recorded")
@EvalDataset("urgency.yaml")
class TicketUrgencyEvalTest {
}
