package dev.agentarena.junit.engine.evaluation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.evaluation.scheduling.Lane;
import dev.agentarena.junit.engine.evaluation.scheduling.Watchdog;

/**
 * One case evaluated on one model, every repeat, as a sequence of steps (the engine's bookkeeping, hooks, the task,
 * each scorer) that a call stuck past its time limit cannot hold up.
 *
 * <p>Every call into user code goes through {@link #step}: it runs on the current thread under the run's
 * {@link Watchdog}, and its result, or its error, is remembered by its position in the repeat. When a call does not
 * return even once interrupted, the watchdog gives it up: the step is remembered as timed out and the case
 * continues on another thread of its {@link Lane}, which replays the repeat from the start, taking every remembered
 * step's result instead of calling again, so the evaluation reaches the same point and goes on with the next step.
 * The stuck thread is left behind; should it ever return, it finds the case no longer its own and stops.
 */
final class CaseRun {

    /** Thrown on a thread that was given up, to leave the case without touching it. */
    static final class GivenUp extends Error {

        private static final long serialVersionUID = 1L;

        GivenUp() {
            super("this thread was given up by the watchdog", null, false, false);
        }
    }

    /** A call into user code (or the engine's bookkeeping around it). */
    @FunctionalInterface
    interface Call<T> {
        T run() throws Throwable;
    }

    /**
     * A remembered step that threw: its error. A step that returned is remembered as its value itself (no wrapper per
     * step: a case takes a few), which user code cannot confuse with this private type.
     */
    private record Failed(Throwable error) {
    }

    private final EvaluationServices run;
    private final CaseEvaluator evaluator;
    private final TimeLimits limits;
    private final DatasetRow row;
    private final int firstRepeat;
    private final int repeats;
    private final Lane lane;
    private final CompletableFuture<List<CaseOutcome>> evaluated = new CompletableFuture<>();

    // guarded by this
    private final List<CaseOutcome> outcomes = new ArrayList<>();
    /** Each step's value, or its {@link Failed} error. */
    private final List<Object> steps = new ArrayList<>();
    private Thread owner;
    private int cursor;
    private volatile int generation;

    /** Every repeat of the case, one after the other, on the run's call pool. */
    CaseRun(EvaluationServices run, CaseEvaluator evaluator, TimeLimits limits, DatasetRow row, int repeats) {
        this(run, evaluator, limits, row, 0, repeats, run.scheduler().callLane());
    }

    /** Repeats {@code firstRepeat} to {@code firstRepeat + repeats - 1} of the case on {@code lane}. */
    CaseRun(EvaluationServices run, CaseEvaluator evaluator, TimeLimits limits, DatasetRow row, int firstRepeat,
            int repeats, Lane lane) {
        this.run = run;
        this.evaluator = evaluator;
        this.limits = limits;
        this.row = row;
        this.firstRepeat = firstRepeat;
        this.repeats = repeats;
        this.lane = lane;
    }

    /** Starts the case on its lane; the future completes with every repeat. */
    CompletableFuture<List<CaseOutcome>> start() {
        lane.execute(this::work);
        return evaluated;
    }

    private void work() {
        if (evaluated.isCancelled()) {
            // the evaluation was closed (stopped, interrupted) while the case waited in the pool's queue: it is not
            // called, so a stop does not spend a window's worth of model calls after it
            return;
        }
        Thread me = Thread.currentThread();
        // the case's state is read and written under its lock once between two repeats (a case has one repeat: two
        // locks in all, besides its steps'), not once per check
        int repeat;
        List<CaseOutcome> done = null;
        synchronized (this) {
            owner = me;
            repeat = next();
            if (repeat < 0) {
                done = List.copyOf(outcomes);
            }
        }
        try {
            while (repeat >= 0) {
                CaseOutcome outcome = evaluator.evaluate(row, repeat, this);
                synchronized (this) {
                    if (owner != me) {
                        return;
                    }
                    outcomes.add(outcome);
                    steps.clear();
                    repeat = next();
                    if (repeat < 0) {
                        done = List.copyOf(outcomes);
                    }
                }
            }
            // the outputs prepare what they will write here, off the reporting thread that every test waits for
            for (CaseOutcome outcome : done) {
                if (outcome.unsettled()) {
                    // what it reports is decided in dataset order, as it is handed back
                    continue;
                }
                for (ScorerResult result : outcome.results()) {
                    run.events().resultComputed(result.record(), result.transcript());
                }
            }
            evaluated.complete(done);
        }
        catch (GivenUp e) {
            // the case went on without this thread
        }
        catch (Throwable t) {
            evaluated.completeExceptionally(t);
        }
    }

    /** The repeat to evaluate next, its steps starting from the first, or -1 when every repeat is done. */
    private int next() {
        if (outcomes.size() == repeats) {
            return -1;
        }
        cursor = 0;
        return firstRepeat + outcomes.size();
    }

    /**
     * Takes a scoring slot when the case's lane wants one ({@link Lane#scoring}).
     *
     * @return whether a slot was taken, to give back with {@link #scored}
     */
    boolean scoring() throws InterruptedException {
        return lane.scoring();
    }

    /** Gives back the slot {@link #scoring} took. */
    void scored(boolean slot) {
        lane.scored(slot);
    }

    /** The time limit of steps of this kind. */
    Duration limitOf(TimeLimits.Kind kind) {
        return limits.of(kind);
    }

    /**
     * Runs one step of the current repeat, or, replaying, returns what it gave before.
     *
     * @param kind what the step is, for its time limit; {@link TimeLimits.Kind#ENGINE} steps have none
     * @param what how messages name it, e.g. {@code scorer 'classification'}
     * @throws Throwable what the step threw, or a {@link CallTimedOutException} when it ran past its limit
     */
    @SuppressWarnings("unchecked")
    <T> T step(TimeLimits.Kind kind, String what, Call<T> call) throws Throwable {
        Thread me = Thread.currentThread();
        int index;
        synchronized (this) {
            if (owner != me) {
                throw new GivenUp();
            }
            index = cursor++;
            if (index < steps.size()) {
                return (T) replay(steps.get(index));
            }
        }
        Object result;
        if (kind == TimeLimits.Kind.ENGINE) {
            result = call(call);
        }
        else {
            Watchdog.Watch watch = run.scheduler().watchdog().watch(limits.of(kind),
                    () -> giveUp(me, index, kind, what));
            result = call(call);
            switch (watch.end()) {
                case INTERRUPTED:
                    result = new Failed(new CallTimedOutException(limits.exceeded(kind, what, false)));
                    break;
                case GIVEN_UP:
                    throw new GivenUp();
                default:
                    break;
            }
        }
        synchronized (this) {
            if (owner != me) {
                throw new GivenUp();
            }
            steps.add(result);
        }
        return (T) replay(result);
    }

    /**
     * Whether the steps running now are still wanted: false once the watchdog gave up a step of the case, so that a
     * task left running no longer calls (and pays for) models.
     */
    BooleanSupplier liveness() {
        int current = generation;
        return () -> generation == current;
    }

    /** The step's value, or its error as a {@link Failed}. */
    private static Object call(Call<?> call) {
        try {
            return call.run();
        }
        catch (GivenUp e) {
            throw e;
        }
        catch (Throwable t) {
            return new Failed(t);
        }
    }

    private static Object replay(Object result) throws Throwable {
        if (result instanceof Failed failed) {
            throw failed.error();
        }
        return result;
    }

    /** The watchdog gave up a step: remember it as timed out and continue the case on another thread. */
    private void giveUp(Thread stuck, int index, TimeLimits.Kind kind, String what) {
        synchronized (this) {
            if (owner != stuck || index != steps.size()) {
                return;
            }
            steps.add(new Failed(new CallTimedOutException(limits.exceeded(kind, what, true))));
            owner = null;
            generation++;
        }
        lane.givenUp(kind == TimeLimits.Kind.SCORER);
        lane.execute(this::work);
    }
}
