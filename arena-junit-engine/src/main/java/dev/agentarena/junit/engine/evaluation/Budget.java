package dev.agentarena.junit.engine.evaluation;

import java.util.Optional;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.evaluation.agents.CallBudget;
import dev.agentarena.junit.engine.results.Money;

/**
 * The run's spending cap, {@code arena.budget.usd}: every model call of a task is charged to it, and once it is spent
 * no new call starts. Calls already in flight finish, so a run may end slightly above the cap.
 */
final class Budget implements CallBudget {

    private final Double limitUsd;
    private double spentUsd;
    private double reservedUsd;

    private Budget(Double limitUsd) {
        this.limitUsd = limitUsd;
    }

    static Budget from(ArenaConfiguration configuration) {
        Optional<Double> limit = configuration.getDouble(Constants.BUDGET_USD);
        if (limit.isPresent() && limit.get() < 0) {
            throw configuration.invalid(Constants.BUDGET_USD, String.valueOf(limit.get()),
                    "a non-negative amount of US dollars");
        }
        return new Budget(limit.orElse(null));
    }

    /** The cap, if one is set. */
    Optional<Double> limitUsd() {
        return Optional.ofNullable(limitUsd);
    }

    /** Whether a cap is set: {@code limitUsd().isPresent()}, asked before every model call without an Optional. */
    @Override
    public boolean capped() {
        return limitUsd != null;
    }

    synchronized double spentUsd() {
        return spentUsd;
    }

    /**
     * Adds a call's cost. A call that cost nothing (a recorded, replayed or simulated answer: nearly every call of a
     * large offline run) changes nothing, and takes no lock: every thread of the call pool charges here, twice a case.
     */
    @Override
    public void charge(double usd) {
        if (usd == 0) {
            return;
        }
        synchronized (this) {
            spentUsd += usd;
        }
    }

    /** Whether the cap is reached; without a cap, never, asked without the lock every call would take. */
    boolean exhausted() {
        if (limitUsd == null) {
            return false;
        }
        synchronized (this) {
            return spentUsd >= limitUsd;
        }
    }

    /**
     * Called before every model call.
     *
     * @throws BudgetExhaustedException when the budget is spent
     */
    @Override
    public void checkBeforeCall() {
        if (exhausted()) {
            throw new BudgetExhaustedException(reason());
        }
    }

    /**
     * Reserves a batched call's estimated cost before it is parked on its batch: the call goes on when what was
     * spent, what other calls waiting on batches reserved and its estimate fit in the budget, or when nothing is
     * reserved (a call alone may pass the cap by its own cost, as a live call may); otherwise it waits until a
     * reservation is settled. So a batch holds only the calls the budget has room for, the others wait for the next
     * one, and the run passes the cap by at most one call, plus what the estimates missed.
     *
     * @throws BudgetExhaustedException when the budget is spent
     */
    @Override
    public void reserve(double usd) throws InterruptedException {
        if (limitUsd == null) {
            return;
        }
        synchronized (this) {
            while (true) {
                if (spentUsd >= limitUsd) {
                    throw new BudgetExhaustedException(reason());
                }
                if (reservedUsd <= 0 || spentUsd + reservedUsd + usd <= limitUsd) {
                    reservedUsd += usd;
                    return;
                }
                wait();
            }
        }
    }

    /** A reserved call is over: its reservation is given back and what it cost is charged. */
    @Override
    public synchronized void settle(double reservedUsd, double costUsd) {
        if (limitUsd != null) {
            this.reservedUsd = Math.max(0, this.reservedUsd - reservedUsd);
        }
        spentUsd += costUsd;
        notifyAll();
    }

    /** "budget of $X reached after $Y". */
    synchronized String reason() {
        return "budget of " + Money.usd(limitUsd == null ? 0 : limitUsd) + " reached after " + Money.usd(spentUsd);
    }

}
