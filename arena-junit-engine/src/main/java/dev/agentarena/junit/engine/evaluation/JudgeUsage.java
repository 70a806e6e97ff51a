package dev.agentarena.junit.engine.evaluation;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.model.Completion;

/**
 * What one scorer's judge calls on one case cost. It is charged to the run's budget and reported on the scorer's
 * results as the metrics {@code judge_cost_usd}, {@code judge_tokens_in} and {@code judge_tokens_out}, so a judge's
 * price is a leaderboard dimension like any other metric; the case's own {@code cost_usd} stays the task's.
 */
final class JudgeUsage {

    private final Budget budget;
    private int calls;
    private long tokensIn;
    private long tokensOut;
    private double costUsd;

    JudgeUsage(Budget budget) {
        this.budget = budget;
    }

    synchronized void record(Completion completion) {
        calls++;
        tokensIn += completion.tokensIn();
        tokensOut += completion.tokensOut();
        costUsd += completion.costUsd();
        budget.charge(completion.costUsd());
    }

    /** The result with the judge's usage as metrics; unchanged when the scorer asked no judge. */
    synchronized ScoreResult onto(ScoreResult result) {
        if (calls == 0 || result == null) {
            return result;
        }
        return result.withMetric("judge_cost_usd", costUsd).withMetric("judge_tokens_in", tokensIn)
                .withMetric("judge_tokens_out", tokensOut);
    }
}
