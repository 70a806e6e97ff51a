package dev.agentarena.junit.engine.reporting;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.apiguardian.api.API;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.support.store.Namespace;
import org.junit.platform.engine.support.store.NamespacedHierarchicalStore;

import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardAccumulator;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardSettings;
import dev.agentarena.junit.engine.results.ShardManifest;

/**
 * What the runs of one launcher session share about their output files.
 *
 * <p>A launcher session may execute the engine several times: Surefire executes every class on its own when it
 * cannot read the test list eagerly, and again for {@code rerunFailingTestsCount}. Their results belong to one run:
 * {@code results.jsonl} is truncated by the first execution that writes it and appended to by the others, and the
 * run's leaderboard collects every execution's results (a rerun result replacing the earlier one), so that
 * {@code leaderboard.json} always agrees with {@code results.jsonl}. The baseline file is read and written under one
 * lock per file.
 *
 * <p>The engine keeps one instance in the launcher session's store, which closes it with the session (deleting the
 * temporary files of large leaderboards); where there is none (a request created without a launcher), each execution
 * gets its own.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ReportingSession implements AutoCloseable {

    private final Set<Path> startedFiles = ConcurrentHashMap.newKeySet();
    private final Map<Path, RunAccumulator> leaderboards = new ConcurrentHashMap<>();
    private final Map<Path, Object> fileLocks = new ConcurrentHashMap<>();
    private final Map<Path, List<ShardManifest.EvalRun>> evalRuns = new ConcurrentHashMap<>();
    private final Set<String> told = ConcurrentHashMap.newKeySet();
    private final Map<Path, Map<String, String>> evalClasses = new ConcurrentHashMap<>();
    /** The session's id: its executions are one run, one entry of the run history. */
    private final String runId = UUID.randomUUID().toString();

    /** Where the session's state is kept in the launcher session's store. */
    private static final Namespace NAMESPACE = Namespace.create(ReportingSession.class);

    /**
     * The reporting state shared by every execution of the launcher session: kept in the session's store, which
     * outlives the executions (Surefire executes again for reruns, and class by class when it streams its tests). A
     * request without a store, or a JUnit Platform older than 1.13, gets state of its own.
     */
    public static ReportingSession of(ExecutionRequest request) {
        NamespacedHierarchicalStore<Namespace> store;
        try {
            store = request.getStore();
        }
        catch (RuntimeException | LinkageError e) {
            return new ReportingSession();
        }
        NamespacedHierarchicalStore<Namespace> session = store.getParent().orElse(store);
        return session.getOrComputeIfAbsent(NAMESPACE, ReportingSession.class, type -> new ReportingSession(),
                ReportingSession.class);
    }

    /** The id of the run the session's executions make: the run history replaces the entry of an earlier one. */
    public String runId() {
        return runId;
    }

    /**
     * Whether this is the first time in the session that the console is told this line about the run's
     * configuration: an ignored setting is said once, not again by each execution Surefire starts class by class.
     */
    public boolean firstTold(String line) {
        return told.add(line);
    }

    /** Whether an execution of this session has opened the file for writing. */
    public boolean opened(Path file) {
        return startedFiles.contains(key(file));
    }

    /** Whether this is the first time in the session that the file is opened for writing (then truncate it). */
    public boolean firstOpen(Path file) {
        return startedFiles.add(key(file));
    }

    /**
     * The accumulator of the run leaderboard of an output directory; a fresh one when the leaderboard settings
     * changed since the last execution.
     */
    public LeaderboardAccumulator runLeaderboard(Path outputDirectory, LeaderboardSettings settings) {
        return leaderboards.compute(key(outputDirectory), (directory, existing) -> {
            if (existing != null && existing.settings.equals(settings)) {
                return existing;
            }
            if (existing != null) {
                existing.accumulator.close();
            }
            return new RunAccumulator(settings);
        }).accumulator;
    }

    /** Lets go of the run leaderboards' results (and their temporary files). */
    @Override
    public void close() {
        leaderboards.values().forEach(run -> run.accumulator.close());
    }

    /**
     * The evals the session's executions ran into an output directory, which its {@code report.html} names the
     * classes of (Surefire may execute one class at a time): a synchronised list to add to and read.
     */
    public List<ShardManifest.EvalRun> evalRuns(Path outputDirectory) {
        return evalRuns.computeIfAbsent(key(outputDirectory), directory -> Collections.synchronizedList(
                new ArrayList<>()));
    }

    /**
     * Claims an eval's name for its class in an output directory, for every execution of the session: the class that
     * claimed it first, when that is another one (whose results this class's would be mixed with in one run's files,
     * as when Surefire executes one class at a time); empty when the name is the class's own.
     *
     * @param name the eval's name as its files tell it apart
     */
    public Optional<String> claimEvalName(Path outputDirectory, String name, String className) {
        String first = evalClasses.computeIfAbsent(key(outputDirectory), directory -> new ConcurrentHashMap<>())
                .putIfAbsent(name, className);
        return first == null || first.equals(className) ? Optional.empty() : Optional.of(first);
    }

    /** The lock under which a file shared by the session's executions (the baseline) is read and written. */
    public Object lockFor(Path file) {
        return fileLocks.computeIfAbsent(key(file), path -> new Object());
    }

    private static Path key(Path path) {
        return path.toAbsolutePath().normalize();
    }

    /** An accumulator and the settings it was made for. */
    private static final class RunAccumulator {
        final LeaderboardSettings settings;
        final LeaderboardAccumulator accumulator;

        RunAccumulator(LeaderboardSettings settings) {
            this.settings = settings;
            this.accumulator = new LeaderboardAccumulator(settings);
        }
    }
}
