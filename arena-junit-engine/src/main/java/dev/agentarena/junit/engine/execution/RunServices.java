package dev.agentarena.junit.engine.execution;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.platform.engine.EngineExecutionListener;

import dev.agentarena.junit.ScorerOptions;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.models.ModelRegistry;
import dev.agentarena.junit.engine.reporting.ResultRecord;
import dev.agentarena.junit.engine.reporting.ResultsWriter;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardAccumulator;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardSettings;
import dev.agentarena.junit.engine.scoring.ScorerDiscovery;
import dev.agentarena.junit.engine.scoring.ScorerRegistry;
import dev.agentarena.junit.engine.secrets.SecretRedactor;

/**
 * What every node of one run shares: configuration, the results file, model clients, scorers, the pool that runs
 * model calls ahead of the reporting thread, the budget, and the leaderboards the results feed.
 */
public final class RunServices implements AutoCloseable {

    private final ArenaConfiguration configuration;
    private final EngineExecutionListener listener;
    private final ModelRegistry models;
    private final ScorerRegistry scorers;
    private final int concurrency;
    private final Map<String, ScorerOptions> options = new ConcurrentHashMap<>();
    private final ScorerDiscovery discovery = new ScorerDiscovery();
    private final Map<Class<?>, ScorerRegistry> registriesByClass = new ConcurrentHashMap<>();
    private final Budget budget;
    private final DisplayNames displayNames;
    private final LeaderboardSettings leaderboardSettings;
    private final RunLeaderboard runLeaderboard;
    private final SecretRedactor redactor;
    private final Map<String, EvalResults> evalResults = new HashMap<>();
    private final Set<String> estimated = ConcurrentHashMap.newKeySet();
    private ResultsWriter results;
    private ExecutorService callPool;

    RunServices(ArenaConfiguration configuration, EngineExecutionListener listener) {
        this.configuration = configuration;
        this.listener = listener;
        this.models = ModelRegistry.create(configuration);
        this.scorers = ScorerRegistry.withBuiltins();
        this.concurrency = configuration.getPositiveInt(Constants.CONCURRENCY, 8);
        this.budget = Budget.from(configuration);
        this.displayNames = DisplayNames.from(configuration);
        this.leaderboardSettings = LeaderboardSettings.from(configuration);
        this.runLeaderboard = RunLeaderboard.of(outputDirectory(), leaderboardSettings);
        this.redactor = SecretRedactor.forRun(configuration, System.getenv());
    }

    ArenaConfiguration configuration() {
        return configuration;
    }

    EngineExecutionListener listener() {
        return listener;
    }

    /** Masks the run's secrets in everything written about a result. */
    SecretRedactor redactor() {
        return redactor;
    }

    ModelRegistry models() {
        return models;
    }

    ScorerRegistry scorers() {
        return scorers;
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

    Path outputDirectory() {
        return configuration.projectRoot().resolve(configuration.get(Constants.OUTPUT_DIR, "target/arena"));
    }

    /**
     * Appends to the results file, which is opened on the first result so a run with no eval leaves it alone, and
     * feeds the leaderboards: the run's, and this execution's per eval for the summary nodes.
     */
    void record(ResultRecord record) {
        ResultsWriter writer;
        EvalResults eval;
        synchronized (this) {
            if (results == null) {
                results = ResultsWriter.open(outputDirectory());
            }
            writer = results;
            eval = evalResults.computeIfAbsent(record.eval(), name -> new EvalResults());
        }
        writer.write(record);
        runLeaderboard.accept(record);
        eval.accept(record);
    }

    /** Whether this execution recorded any result. */
    synchronized boolean recordedAny() {
        return results != null;
    }

    /** The leaderboard of everything written to the output directory in this JVM, for the end of the run. */
    Leaderboard runLeaderboard() {
        return runLeaderboard.build();
    }

    /** The leaderboard of one eval's results of this execution; empty evals when it recorded none. */
    Leaderboard evalLeaderboard(String eval) {
        EvalResults results;
        synchronized (this) {
            results = evalResults.computeIfAbsent(eval, name -> new EvalResults());
        }
        return results.leaderboard();
    }

    LeaderboardSettings leaderboardSettings() {
        return leaderboardSettings;
    }

    DisplayNames displayNames() {
        return displayNames;
    }

    Budget budget() {
        return budget;
    }

    /** Prints the cost estimate of an eval before its first model call, once per run, when a budget is set. */
    void estimateCostOnce(EvalRuntime eval, Supplier<List<CostEstimate.Target>> targets, int repeats) {
        if (budget.limitUsd().isPresent() && estimated.add(eval.definition().name())) {
            System.out.println(CostEstimate.describe(this, eval, targets.get(), repeats));
        }
    }

    /** The scorer's {@code scorers.options.<name>} block. */
    ScorerOptions optionsFor(String scorer) {
        return options.computeIfAbsent(scorer,
                name -> ScorerOptions.of(name, configuration.section(Constants.SCORER_OPTIONS_PREFIX + name + ".")));
    }

    /** The pool on which model calls run ahead; its threads inherit the engine's context class loader. */
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
            callPool = Executors.newFixedThreadPool(concurrency, factory);
        }
        return callPool;
    }

    /** One eval's results, built into a leaderboard once per batch of new results: all summary nodes share it. */
    private final class EvalResults {
        private final LeaderboardAccumulator accumulator = new LeaderboardAccumulator(leaderboardSettings);
        private Leaderboard built;
        private long builtAt = -1;

        void accept(ResultRecord record) {
            accumulator.accept(record);
        }

        synchronized Leaderboard leaderboard() {
            if (built == null || builtAt != accumulator.size()) {
                builtAt = accumulator.size();
                built = accumulator.build();
            }
            return built;
        }
    }

    @Override
    public synchronized void close() {
        if (callPool != null) {
            callPool.shutdownNow();
        }
        models.close();
        if (results != null) {
            results.close();
            results = null;
        }
    }
}
