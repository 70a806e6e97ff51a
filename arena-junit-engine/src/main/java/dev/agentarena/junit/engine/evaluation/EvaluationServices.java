package dev.agentarena.junit.engine.evaluation;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ArenaSettings;
import dev.agentarena.junit.engine.labels.RunLabels;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.registry.ModelRegistry;
import dev.agentarena.junit.engine.scoring.ScorerDiscovery;
import dev.agentarena.junit.engine.scoring.ScorerRegistry;
import dev.agentarena.junit.engine.secrets.SecretRedactor;

/**
 * What the evaluations of one execution share: the configuration, model clients, scorers, the pool that runs cases
 * ahead of the reporting thread, the budget, the watchdog of user code, and the two events the core sends out. The
 * run's wiring ({@code execution/RunServices}) owns one and adds the outputs; this class knows none of them.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EvaluationServices implements AutoCloseable {

    private final ArenaConfiguration configuration;
    private final EvaluationEvents events;
    private final ModelRegistry models;
    private final ScorerRegistry scorers;
    private final int concurrency;
    private final ScorerDiscovery discovery = new ScorerDiscovery();
    private final Map<Class<?>, ScorerRegistry> registriesByClass = new ConcurrentHashMap<>();
    private final Budget budget;
    private final Set<String> estimated = ConcurrentHashMap.newKeySet();
    private final Watchdog watchdog = new Watchdog();
    private final SecretRedactor redactor;
    private final RunLabels labels;
    private final int textLimit;
    private final int maxSteps;
    private final int maxTurns;
    private final String userModel;
    private ThreadPoolExecutor callPool;
    /** Written once under the lock, read without it by each case that computes only. */
    private volatile ThreadPoolExecutor computePool;
    private ExecutorService waitingPool;
    private final Map<String, PacedPool> pacedPools = new ConcurrentHashMap<>();
    private final Semaphore scoringSlots;

    private EvaluationServices(ArenaConfiguration configuration, RunLabels labels, EvaluationEvents events) {
        this.configuration = configuration;
        this.labels = labels;
        this.events = events;
        ArenaSettings settings = configuration.typed();
        this.concurrency = settings.concurrency();
        this.scoringSlots = new Semaphore(concurrency);
        this.budget = Budget.from(configuration);
        this.redactor = SecretRedactor.forRun(configuration, System.getenv());
        this.textLimit = settings.outputTextLimit();
        this.maxSteps = settings.agentMaxSteps();
        this.maxTurns = settings.agentMaxTurns();
        this.userModel = settings.agentUserModel();
        this.models = ModelRegistry.create(configuration, events::modelNotice);
        this.scorers = ScorerRegistry.withBuiltins();
    }

    /**
     * The evaluation services of one execution.
     *
     * @param events where computed results and cost estimates go
     * @throws RuntimeException when a setting they read is invalid (naming key, value and source)
     */
    public static EvaluationServices start(ArenaConfiguration configuration, EvaluationEvents events) {
        return start(configuration, RunLabels.from(configuration), events);
    }

    /**
     * The evaluation services of one execution, with the run's human labels (shared with the reporting, which
     * measures the scorers' agreement with them).
     */
    public static EvaluationServices start(ArenaConfiguration configuration, RunLabels labels,
            EvaluationEvents events) {
        return new EvaluationServices(configuration, labels, events);
    }

    /** The run's human labels: a labelled {@code manual} case is graded by its label. */
    RunLabels labels() {
        return labels;
    }

    /** How many calls to the evaluated model one case may make ({@code arena.agent.max-steps}). */
    int maxSteps() {
        return maxSteps;
    }

    /** How many user turns a simulated user may take when its case says not ({@code arena.agent.max-turns}). */
    int maxTurns() {
        return maxTurns;
    }

    /** The key of the model that plays a simulated user when its case names none ({@code arena.agent.user-model}). */
    String userModel() {
        return userModel;
    }

    /** The run's configuration. */
    public ArenaConfiguration configuration() {
        return configuration;
    }

    /** The budget's cap ({@code arena.budget.usd}), what was spent against it and why it stopped calls, if set. */
    public Optional<BudgetSpend> budgetSpend() {
        return budget.limitUsd().map(limit -> new BudgetSpend(limit, budget.spentUsd(), budget.reason()));
    }

    /** What a run with a budget spent of it. */
    public record BudgetSpend(double limitUsd, double spentUsd, String reason) {
    }

    /** The key of the judge model ({@code arena.judge.model}), a model of every run. */
    public String judgeModelKey() {
        return models.judgeModelKey();
    }

    EvaluationEvents events() {
        return events;
    }

    /** Masks the run's secrets in everything written about a result. */
    SecretRedactor redactor() {
        return redactor;
    }

    /** How long a reason or error may be before it is cut; 0 for no limit. */
    int textLimit() {
        return textLimit;
    }

    ModelRegistry models() {
        return models;
    }

    /**
     * The scorers an eval class can name: the builtins, the catalogue, and the {@code Scorer} classes found next to
     * the class or through {@code ServiceLoader}.
     *
     * @throws IllegalArgumentException when a discovered scorer takes a name that is already taken
     */
    ScorerRegistry scorersFor(Class<?> evalClass) {
        try {
            return registriesByClass.computeIfAbsent(evalClass,
                    type -> scorers.withDiscovered(discovery.scorersFor(type)));
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(evalClass.getName() + " cannot run: " + e.getMessage(), e);
        }
    }

    int concurrency() {
        return concurrency;
    }

    Budget budget() {
        return budget;
    }

    /** Whether the eval's cost estimate is still to be given: once per execution, and only with a budget. */
    boolean firstEstimate(String eval) {
        return budget.limitUsd().isPresent() && estimated.add(eval);
    }

    /** The guard of every call into user code. */
    Watchdog watchdog() {
        return watchdog;
    }

    /**
     * A worker of a fixed pool ({@link #callPool()}, {@link #computePool()}) is stuck in a call that was given up: the
     * pool gets one more thread, so the run keeps its concurrency. (The stuck one, should it return, stays in the pool
     * as a spare.)
     */
    synchronized void replaceStuckWorker(Executor stuckIn) {
        ThreadPoolExecutor pool = (ThreadPoolExecutor) stuckIn;
        pool.setMaximumPoolSize(pool.getMaximumPoolSize() + 1);
        pool.setCorePoolSize(pool.getCorePoolSize() + 1);
    }

    /**
     * The pool on which cases are evaluated ahead: {@code arena.concurrency} threads, for cases that wait on a model,
     * a task or a scorer's calls. Its threads inherit the engine's context class loader.
     */
    synchronized ExecutorService callPool() {
        if (callPool == null) {
            callPool = fixedPool("arena-call-", concurrency);
        }
        return callPool;
    }

    /**
     * The pool of cases that compute only ({@link CaseEvaluator#computesOnly}: recorded outputs graded by builtins):
     * as many threads as the machine has cores, at most {@code arena.concurrency}. Such a case waits on nothing, so
     * threads beyond the cores only take turns on them: on two cores, eight threads made a million recorded cases a
     * sixth slower in Surefire's fork than two (docs/benchmarks.md, round 6), as the thread holding the case the
     * results wait for was preempted by the others and the JIT compiler had less of the machine.
     */
    ExecutorService computePool() {
        ThreadPoolExecutor pool = computePool;
        if (pool != null) {
            return pool;
        }
        synchronized (this) {
            if (computePool == null) {
                computePool = fixedPool("arena-compute-", computeThreads());
            }
            return computePool;
        }
    }

    /** How many threads {@link #computePool()} has: the cores, at most {@code arena.concurrency}. */
    int computeThreads() {
        return Math.max(1, Math.min(concurrency, Runtime.getRuntime().availableProcessors()));
    }

    private static ThreadPoolExecutor fixedPool(String namePrefix, int threads) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, namePrefix + count.incrementAndGet());
            thread.setDaemon(true);
            thread.setContextClassLoader(loader);
            return thread;
        };
        return new ThreadPoolExecutor(threads, threads, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                factory);
    }

    /**
     * The pool of cases whose model answers in batches: a thread per case, since each case spends its time parked on
     * its batch rather than working, and a batch is only as large as the cases waiting on it. How many cases run at
     * once is bounded by the dataset evaluation's window, not by {@code arena.concurrency}.
     */
    synchronized ExecutorService waitingPool() {
        if (waitingPool == null) {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            AtomicInteger count = new AtomicInteger();
            waitingPool = Executors.newCachedThreadPool(runnable -> {
                Thread thread = new Thread(runnable, "arena-batch-case-" + count.incrementAndGet());
                thread.setDaemon(true);
                thread.setContextClassLoader(loader);
                return thread;
            });
        }
        return waitingPool;
    }

    /**
     * The pool of a self-paced model's cases: sized by what its pace wants in flight, at least
     * {@code arena.concurrency}; one per model key and run.
     */
    Executor pacedPool(String modelKey, ModelEndpoint.Pacing pacing) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return pacedPools.computeIfAbsent(modelKey, key -> {
            AtomicInteger count = new AtomicInteger();
            return new PacedPool(pacing, concurrency, runnable -> {
                Thread thread = new Thread(runnable, "arena-paced-" + count.incrementAndGet());
                thread.setDaemon(true);
                thread.setContextClassLoader(loader);
                return thread;
            });
        });
    }

    /**
     * The {@code arena.concurrency} slots of scoring for cases that run on a pool larger than that (a batch's cases
     * answered at once, a self-paced model's): their scorers, CPU work, take a slot each, as they would a thread of
     * the call pool.
     */
    Semaphore scoringSlots() {
        return scoringSlots;
    }

    @Override
    public synchronized void close() {
        watchdog.close();
        if (callPool != null) {
            callPool.shutdownNow();
        }
        if (computePool != null) {
            computePool.shutdownNow();
        }
        if (waitingPool != null) {
            waitingPool.shutdownNow();
        }
        pacedPools.values().forEach(PacedPool::shutdownNow);
        models.close();
    }

    /**
     * The pool of one self-paced model's cases ({@link ModelEndpoint.Pacing}: an {@code openai:} key that learned its
     * provider's limits): as many threads as the model's pace wants in flight, at least {@code arena.concurrency}, resized as the
     * model learns. It exists because a fixed pool of {@code arena.concurrency} threads (8 by default) keeps a provider
     * that allows 30 requests a second at a latency of half a second below 60% of its limit, while a larger fixed pool
     * would queue cases on the model's pace long enough to count against their task's time limit. Scoring on these
     * threads still takes one of {@code arena.concurrency} slots ({@link EvaluationServices#scoringSlots()}).
     */
    static final class PacedPool implements Executor {

        private final ThreadPoolExecutor pool;
        private final ModelEndpoint.Pacing pacing;
        private final int floor;
        // guarded by this
        private int size;

        PacedPool(ModelEndpoint.Pacing pacing, int floor, ThreadFactory threads) {
            this.pacing = pacing;
            this.floor = floor;
            this.size = floor;
            this.pool = new ThreadPoolExecutor(floor, floor, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threads);
        }

        @Override
        public void execute(Runnable task) {
            resize();
            pool.execute(() -> {
                try {
                    task.run();
                }
                finally {
                    resize();
                }
            });
        }

        /** How many threads it has now. */
        synchronized int size() {
            return size;
        }

        private synchronized void resize() {
            int wanted = Math.max(floor, Math.min(pacing.mostInFlight(), pacing.inFlightWanted()));
            if (wanted == size) {
                return;
            }
            // the core size may never exceed the maximum, in either direction of the change
            if (wanted > size) {
                pool.setMaximumPoolSize(wanted);
                pool.setCorePoolSize(wanted);
            }
            else {
                pool.setCorePoolSize(wanted);
                pool.setMaximumPoolSize(wanted);
            }
            size = wanted;
        }

        void shutdownNow() {
            pool.shutdownNow();
        }
    }
}
