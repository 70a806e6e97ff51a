package dev.agentarena.junit.engine.evaluation.agents;

import org.apiguardian.api.API;

/**
 * The run's spending cap as an agent's calls see it ({@code arena.budget.usd}): checked before each call, charged
 * after it, and, for a call parked on a batch, reserved first and settled once it answered.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface CallBudget {

    /** Throws, naming the cap and what was spent, when the budget is spent. */
    void checkBeforeCall();

    /** Adds a call's cost. */
    void charge(double usd);

    /** Whether a cap is set. */
    boolean capped();

    /** Reserves a batched call's estimated cost before it is parked; waits while the budget has no room for it. */
    void reserve(double usd) throws InterruptedException;

    /** A reserved call is over: its reservation is given back and what it cost is charged. */
    void settle(double reservedUsd, double costUsd);
}
