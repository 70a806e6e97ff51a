package dev.agentarena.junit.engine.execution;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.platform.engine.EngineExecutionListener;

import dev.agentarena.junit.ScorerOptions;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.models.ModelRegistry;
import dev.agentarena.junit.engine.reporting.ResultRecord;
import dev.agentarena.junit.engine.reporting.ResultsWriter;
import dev.agentarena.junit.engine.scoring.ScorerDiscovery;
import dev.agentarena.junit.engine.scoring.ScorerRegistry;
import dev.agentarena.junit.scoring.Scorer;

/**
 * What every node of one run shares: configuration, the results file, model clients, scorers and the pool that runs
 * model calls ahead of the reporting thread.
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
    private ResultsWriter results;
    private ExecutorService callPool;

    RunServices(ArenaConfiguration configuration, EngineExecutionListener listener) {
        this.configuration = configuration;
        this.listener = listener;
        this.models = ModelRegistry.create(configuration);
        this.scorers = ScorerRegistry.withBuiltins();
        this.concurrency = configuration.getPositiveInt(Constants.CONCURRENCY, 8);
    }

    ArenaConfiguration configuration() {
        return configuration;
    }

    EngineExecutionListener listener() {
        return listener;
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
        return registriesByClass.computeIfAbsent(evalClass, type -> {
            ScorerRegistry registry = scorers.copy();
            for (Scorer scorer : discovery.scorersFor(type)) {
                registry.register(scorer, "custom");
            }
            return registry;
        });
    }

    int concurrency() {
        return concurrency;
    }

    Path outputDirectory() {
        return configuration.projectRoot().resolve(configuration.get(Constants.OUTPUT_DIR, "target/arena"));
    }

    /** Appends to the results file, which is opened on the first result so a run with no eval leaves it alone. */
    void record(ResultRecord record) {
        ResultsWriter writer;
        synchronized (this) {
            if (results == null) {
                results = ResultsWriter.open(outputDirectory());
            }
            writer = results;
        }
        writer.write(record);
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
