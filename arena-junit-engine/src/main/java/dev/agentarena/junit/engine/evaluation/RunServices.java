package dev.agentarena.junit.engine.evaluation;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.models.ModelRegistry;
import dev.agentarena.junit.engine.reporting.Leaderboards;
import dev.agentarena.junit.engine.reporting.ReportingSession;
import dev.agentarena.junit.engine.reporting.ResultsFile;
import dev.agentarena.junit.engine.reporting.RunListener;
import dev.agentarena.junit.engine.reporting.RunListeners;
import dev.agentarena.junit.engine.reporting.RunOutput;
import dev.agentarena.junit.engine.reporting.RunReport;
import dev.agentarena.junit.engine.reporting.baseline.BaselineStore;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardSettings;
import dev.agentarena.junit.engine.results.LongTexts;
import dev.agentarena.junit.engine.results.ShardManifest;
import dev.agentarena.junit.engine.scoring.ScorerDiscovery;
import dev.agentarena.junit.engine.scoring.ScorerRegistry;
import dev.agentarena.junit.engine.secrets.SecretRedactor;

/**
 * What everything in one execution of the engine shares: the configuration, model clients, scorers, the pool that
 * runs model calls ahead of the reporting thread, the budget, and the chain of listeners every result goes to.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RunServices implements AutoCloseable {

    private final ArenaConfiguration configuration;
    private final ReportingSession session;
    private final ModelRegistry models;
    private final ScorerRegistry scorers;
    private final int concurrency;
    private final ScorerDiscovery discovery = new ScorerDiscovery();
    private final Map<Class<?>, ScorerRegistry> registriesByClass = new ConcurrentHashMap<>();
    private final Budget budget;
    private final Optional<Shard> shard;
    private final Path outputDirectory;
    private final Optional<String> outputNote;
    private final ResultsFile results;
    private final Leaderboards leaderboards;
    private final RunListeners listeners;
    private final Set<String> estimated = ConcurrentHashMap.newKeySet();
    private final Watchdog watchdog = new Watchdog();
    private final SecretRedactor redactor;
    private final int textLimit;
    private ThreadPoolExecutor callPool;

    private RunServices(ArenaConfiguration configuration, ReportingSession session, Optional<String> partial) {
        this.configuration = configuration;
        this.session = session;
        this.models = ModelRegistry.create(configuration);
        this.scorers = ScorerRegistry.withBuiltins();
        this.concurrency = configuration.getPositiveInt(Constants.CONCURRENCY, 8);
        this.budget = Budget.from(configuration);
        LeaderboardSettings leaderboardSettings = LeaderboardSettings.from(configuration);
        this.shard = Shard.from(configuration);
        Path configured = configuration.projectRoot()
                .resolve(configuration.get(Constants.OUTPUT_DIR, "target/arena"));
        RunOutput output = RunOutput.of(shard.map(part -> part.outputDirectory(configured)).orElse(configured),
                session, partial);
        this.outputDirectory = output.directory();
        this.outputNote = output.note();
        this.results = new ResultsFile(outputDirectory, session);
        this.leaderboards = new Leaderboards(outputDirectory, leaderboardSettings, session);
        this.listeners = RunListeners.standard(results, leaderboards, configuration, outputDirectory);
        this.redactor = SecretRedactor.forRun(configuration, System.getenv());
        this.textLimit = configuration.getInt(Constants.OUTPUT_TEXT_LIMIT, LongTexts.DEFAULT_LIMIT);
        if (textLimit < 0 || (textLimit > 0 && textLimit < 100)) {
            throw configuration.invalid(Constants.OUTPUT_TEXT_LIMIT, String.valueOf(textLimit),
                    "0 (no limit) or at least 100 characters");
        }
    }

    /**
     * The services of one execution.
     *
     * @param session what the executions of the launcher session share
     * @throws RuntimeException when a setting they read is invalid (naming key, value and source)
     */
    public static RunServices start(ArenaConfiguration configuration, ReportingSession session) {
        return start(configuration, session, Optional.empty());
    }

    /**
     * The services of one execution that may run only part of an eval: then its results and leaderboard go to their
     * own directory (see {@link RunOutput}).
     *
     * @param partialSelection why only part of an eval runs, if it does
     */
    public static RunServices start(ArenaConfiguration configuration, ReportingSession session,
            Optional<String> partialSelection) {
        return new RunServices(configuration, session, partialSelection);
    }

    /** Where this execution writes its results, when that is not the output directory (a partial run), and why. */
    public Optional<String> outputNote() {
        return outputNote;
    }

    /** The run's configuration. */
    public ArenaConfiguration configuration() {
        return configuration;
    }

    /** Where every result and summary goes. */
    public RunListener listeners() {
        return listeners;
    }

    /** The leaderboards the results feed; the summary tests read them. */
    public Leaderboards leaderboards() {
        return leaderboards;
    }

    /** The baseline file's store, shared with the session's other executions. */
    public BaselineStore baseline(Path file) {
        return new BaselineStore(file, session.lockFor(file), listeners::warning);
    }

    /** The part of every dataset this run runs ({@code arena.shard}), if it runs one. */
    public Optional<Shard> shard() {
        return shard;
    }

    /**
     * Ends the execution: when it recorded any result, writes the run's leaderboard files and tells the listeners; a
     * shard's run then describes itself for the merge (with or without results).
     *
     * @param evals the eval classes this execution ran, for a shard's manifest
     * @return the run's leaderboard, when a result was recorded
     */
    public Optional<Leaderboard> finish(List<ShardManifest.EvalRun> evals) {
        Optional<Leaderboard> finished = Optional.empty();
        if (results.writtenAny()) {
            Leaderboard leaderboard = leaderboards.runLeaderboard();
            leaderboards.writeRunFiles(leaderboard);
            Optional<RunReport.BudgetSpend> spend = budget.limitUsd()
                    .map(limit -> new RunReport.BudgetSpend(limit, budget.spentUsd(), budget.reason()));
            listeners.runFinished(new RunReport(leaderboard, outputDirectory, spend));
            finished = Optional.of(leaderboard);
        }
        if (shard.isPresent()) {
            listeners.shardFinished(ShardRuns.manifest(shard.get(), configuration, evals, outputDirectory, session),
                    outputDirectory);
        }
        return finished;
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
     * A worker of the pool is stuck in a call that was given up: the pool gets one more thread, so the run keeps its
     * concurrency. (The stuck one, should it return, stays in the pool as a spare.)
     */
    synchronized void replaceStuckWorker() {
        ThreadPoolExecutor pool = (ThreadPoolExecutor) callPool();
        pool.setMaximumPoolSize(pool.getMaximumPoolSize() + 1);
        pool.setCorePoolSize(pool.getCorePoolSize() + 1);
    }

    /** The pool on which cases are evaluated ahead; its threads inherit the engine's context class loader. */
    synchronized ExecutorService callPool() {
        if (callPool == null) {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            AtomicInteger count = new AtomicInteger();
            ThreadFactory factory = runnable -> {
                Thread thread = new Thread(runnable, "arena-call-" + count.incrementAndGet());
                thread.setDaemon(true);
                thread.setContextClassLoader(loader);
                return thread;
            };
            callPool = new ThreadPoolExecutor(concurrency, concurrency, 0L, TimeUnit.MILLISECONDS,
                    new LinkedBlockingQueue<>(), factory);
        }
        return callPool;
    }

    @Override
    public synchronized void close() {
        watchdog.close();
        if (callPool != null) {
            callPool.shutdownNow();
        }
        models.close();
        results.close();
        leaderboards.close();
    }
}
