package dev.agentarena.junit.engine.evaluation.scheduling;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Predicate;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.evaluation.scheduling.Lane.Path;
import dev.agentarena.junit.engine.models.ModelEndpoint.Batching;
import dev.agentarena.junit.engine.models.ModelEndpoint.Pacing;

/**
 * Decides where each case of a run runs, and owns what it runs on: the pools ({@link CasePools}), the read-ahead
 * windows, pacing, batching and the {@link Watchdog}. A dataset's cases go, in this order of precedence, to the
 * batched lane (a model that answers in batches), the paced lane (a model that paces itself), the compute lane (a
 * case that computes only) or the call lane (any other); {@code docs/architecture/engine.md} has the table. Results
 * come back in dataset order whatever lane ran them.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CaseScheduler implements AutoCloseable {

    /**
     * How many cases per thread of the dataset's pool may be started ahead of the one being reported: enough to keep
     * the calls going while the reporting thread falls behind (docs/benchmarks.md).
     */
    public static final int READ_AHEAD = 16;

    /**
     * How many cases per core the window may grow to while the rows in flight weigh under {@link #SMALL_ROWS_BYTES}:
     * cases that cost microseconds keep the cores busy through the reporting thread's slow stretches. Per core, not
     * per thread of the pool: such cases run on no more threads at once than there are cores, and a window grown
     * further only holds more finished results for the reporting thread to catch up on.
     */
    public static final int SMALL_ROWS_READ_AHEAD = 128;

    /** The most the rows in flight may weigh ({@link RowWeights}) for a window to grow past {@link #READ_AHEAD}. */
    public static final long SMALL_ROWS_BYTES = 4L << 20;

    private final CasePools pools;
    private final Watchdog watchdog = new Watchdog();

    /** @param concurrency {@code arena.concurrency}: the call pool's threads, and the bound of scoring */
    public CaseScheduler(int concurrency) {
        this.pools = new CasePools(concurrency);
    }

    /**
     * What the scheduler knows of a dataset's model and cases.
     *
     * @param modelComputesOnly whether the model's cases compute only, but for their scorers and simulated users
     * @param computesOnly whether a row's case computes only (waits on nothing), asked only when the model does
     */
    public record Workload(String modelKey, boolean modelComputesOnly, Predicate<DatasetRow> computesOnly,
            Optional<Batching> batching, Optional<Pacing> pacing, int repeats) {
    }

    /** How the evaluation starts a case on the lane chosen for it. */
    public interface Cases<R> {

        /** Starts repeats {@code firstRepeat} to {@code firstRepeat + repeats - 1} of the row's case on the lane. */
        CompletableFuture<R> start(DatasetRow row, int firstRepeat, int repeats, Lane lane);

        /** One case's repeats, started apart, as one result, in repeat order. */
        R joined(DatasetRow row, List<R> repeats);
    }

    /**
     * The dataset's cases, started ahead on their lanes in a window sized for the lane's pool and handed back in
     * dataset order. The only place that chooses a case's lane.
     */
    public <R> ReadAheadWindow<DatasetRow, R> schedule(Iterator<DatasetRow> rows, Workload work, Cases<R> cases) {
        int repeats = work.repeats();
        int slots = work.modelComputesOnly() ? pools.computeThreads() : pools.concurrency();
        int window = READ_AHEAD * slots;
        if (work.batching().isPresent()) {
            // every repeat at once, each parked on its batch; two batches' worth ahead: one waits, the next gathers
            Batching batching = work.batching().get();
            Lane batched = new Lane(Path.BATCHED, pools.waitingPool(), pools, Optional.of(batching.longestWait()));
            int casesPerBatch = Math.max(1, (batching.maxCalls() + repeats - 1) / repeats);
            return new ReadAheadWindow<>(rows, row -> repeatsAtOnce(row, repeats, batched, cases),
                    Math.max(window, 2 * casesPerBatch));
        }
        if (work.pacing().isPresent()) {
            Pacing pacing = work.pacing().get();
            Lane paced = new Lane(Path.PACED, pools.pacedPool(work.modelKey(), pacing), pools, Optional.empty());
            return new ReadAheadWindow<>(rows, row -> cases.start(row, 0, repeats, paced),
                    Math.max(window, 2 * pacing.mostInFlight()));
        }
        Lane call = callLane();
        ReadAheadWindow.Growth<DatasetRow> growth = new ReadAheadWindow.Growth<>(SMALL_ROWS_READ_AHEAD
                * pools.computeThreads(),
                row -> repeats * RowWeights.weightOf(row), SMALL_ROWS_BYTES);
        if (!work.modelComputesOnly()) {
            return new ReadAheadWindow<>(rows, row -> cases.start(row, 0, repeats, call), window, growth);
        }
        Lane compute = computeLane();
        Predicate<DatasetRow> computesOnly = work.computesOnly();
        return new ReadAheadWindow<>(rows,
                row -> cases.start(row, 0, repeats, computesOnly.test(row) ? compute : call), window, growth);
    }

    private static <R> CompletableFuture<R> repeatsAtOnce(DatasetRow row, int repeats, Lane lane, Cases<R> cases) {
        List<CompletableFuture<R>> parts = new ArrayList<>(repeats);
        for (int repeat = 0; repeat < repeats; repeat++) {
            parts.add(cases.start(row, repeat, 1, lane));
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                .thenApply(done -> cases.joined(row, parts.stream().map(CompletableFuture::join).toList()));
    }

    /** The lane of cases that wait on a model, a task or a scorer's calls: the call pool. */
    public Lane callLane() {
        return new Lane(Path.CALL, pools.callPool(), pools, Optional.empty());
    }

    /** The lane of cases that compute only: the compute pool. */
    Lane computeLane() {
        return new Lane(Path.COMPUTE, pools.computePool(), pools, Optional.empty());
    }

    /**
     * The pool of cases that wait on calls, {@code arena.concurrency} threads, which other work of the run that waits
     * on calls shares (the arena's pairwise comparisons).
     */
    public ExecutorService callPool() {
        return pools.callPool();
    }

    /** The pool of cases that compute only: as many threads as cores, at most {@code arena.concurrency}. */
    public ExecutorService computePool() {
        return pools.computePool();
    }

    /** How many threads {@link #computePool()} has. */
    public int computeThreads() {
        return pools.computeThreads();
    }

    /** {@code arena.concurrency}. */
    public int concurrency() {
        return pools.concurrency();
    }

    /** The guard of every call into user code. */
    public Watchdog watchdog() {
        return watchdog;
    }

    @Override
    public void close() {
        watchdog.close();
        pools.close();
    }
}
