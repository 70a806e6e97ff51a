package dev.agentarena.junit.engine.evaluation;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Predicate;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.datasets.DatasetStream;
import dev.agentarena.junit.engine.models.ModelEndpoint.Batching;
import dev.agentarena.junit.engine.models.ModelEndpoint.Pacing;

/**
 * One dataset evaluated on one model: reads the rows lazily, evaluates the selected ones ahead on the call pool, and
 * hands each case back, with all its repeats, in dataset order, as soon as it is ready.
 *
 * <p>Close it to stop: what is still in flight is cancelled and the dataset is closed.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DatasetEvaluation implements Iterator<List<CaseOutcome>>, AutoCloseable {

    /**
     * How many cases per call slot may be started ahead of the one being reported. The window holds the cases being
     * called and those called but not yet reported, and it is refilled only when half of it is left: once the
     * reporting thread falls more than half a window behind the calls, the pool runs out of work and the calls stop.
     * It falls behind in slow stretches: its first thousand tests run before they are compiled, a collection, and
     * under {@code mvn test} Surefire's handling of each test and two JVMs compiling on the same cores. Sixteen per
     * slot keep the calls going through those: under {@code mvn test}, 1,000 cases at 50 ms with 32 slots took 0.3 s
     * less than with eight per slot (the calls alone 1.72 s instead of 1.95 s, against 1.56 s ideal), and 0.6 s less
     * than with two. The cases held are only those started and not yet reported: at most sixteen per slot, 128 at
     * the default concurrency.
     */
    static final int READ_AHEAD = 16;

    /**
     * How many cases per slot (a thread of the call pool, or of the compute pool for a model whose cases compute only)
     * the window may grow to while its rows are small (see {@link ReadAheadWindow}): 1,024 on the call pool at the
     * default concurrency. Cases that cost microseconds (recorded outputs, a
     * task without a model) on eight call threads and two cores: a million of them ran a fifth faster once compiled,
     * 4.1-5.3 s against 5.2-5.9 s, with the report's view made on the pool (docs/benchmarks.md, round 5).
     */
    static final int SMALL_ROWS_READ_AHEAD = 128;

    /**
     * The most the rows in flight may weigh, by {@link #weightOf}, for the window to grow past {@link #READ_AHEAD}
     * cases per slot: 4 MB. A million rows of a short input, reference and output (about 500 bytes each) fill the
     * grown window with half a megabyte; rows of 32 KB or more, or of values the estimate does not size, keep the
     * window it had.
     */
    static final long SMALL_ROWS_BYTES = 4L << 20;

    /** What {@link #weightOf} counts for a row's value that is not a string (a JSON object, a list, a map). */
    static final long UNSIZED_VALUE_BYTES = 32 << 10;

    /** What {@link #weightOf} counts for a row besides its texts: its objects, its tags, its case's bookkeeping. */
    private static final long ROW_BYTES = 256;

    private final DatasetStream rows;
    private final ReadAheadWindow<DatasetRow, List<CaseOutcome>> pipeline;
    private final SharedProblems problems;
    private final java.util.function.Consumer<List<CaseOutcome>> handedBack;

    /**
     * The repeats of one case run one after the other (a {@link CaseRun}); the pipeline runs different cases in
     * parallel on the run's pool.
     *
     * <p>On a model that answers in batches, every repeat of a case runs at once, each on a thread of its own that
     * waits parked on the batch, and the window holds two batches' worth of cases: one batch waits on the provider
     * while the next one gathers, and {@code arena.concurrency} does not cap a batch's size.
     *
     * <p>On a model that paces itself to its provider's learned limits, the cases run on that model's
     * {@link EvaluationServices.PacedPool}: as many at once as its pace wants in flight (at least {@code arena.concurrency}), the window
     * large enough to feed its most. On both, scoring takes one of {@code arena.concurrency} slots.
     */
    DatasetEvaluation(EvaluationServices run, CaseEvaluator evaluator, TimeLimits limits, DatasetStream rows,
            Predicate<DatasetRow> selected, int repeats, SharedProblems problems, Optional<Batching> batching,
            Optional<Pacing> pacing, java.util.function.Consumer<List<CaseOutcome>> handedBack) {
        this.rows = rows;
        this.problems = problems;
        this.handedBack = handedBack;
        // the cases of a model that answers at once mostly run on the compute pool: a window per thread of it
        int slots = evaluator.modelComputesOnly() ? run.computeThreads() : run.concurrency();
        int window = READ_AHEAD * slots;
        if (batching.isEmpty() && pacing.isPresent()) {
            Executor pool = run.pacedPool(evaluator.modelKey(), pacing.get());
            this.pipeline = new ReadAheadWindow<>(selected(rows, selected),
                    row -> new CaseRun(run, evaluator, limits, row, 0, repeats, pool, false).start(),
                    Math.max(window, 2 * pacing.get().mostInFlight()));
        }
        else if (batching.isEmpty()) {
            // asked once, not per case (the run's pool is one object, which grows when a worker is given up); a case
            // that computes only runs on the compute pool, as many threads as cores
            Executor pool = run.callPool();
            this.pipeline = new ReadAheadWindow<>(selected(rows, selected),
                    row -> new CaseRun(run, evaluator, limits, row, 0, repeats,
                            evaluator.computesOnly(row) ? run.computePool() : pool, true).start(), window,
                    new ReadAheadWindow.Growth<>(SMALL_ROWS_READ_AHEAD * slots,
                            row -> repeats * weightOf(row), SMALL_ROWS_BYTES));
        }
        else {
            TimeLimits waiting = limits.withTaskWait(batching.get().longestWait());
            int casesPerBatch = Math.max(1, (batching.get().maxCalls() + repeats - 1) / repeats);
            this.pipeline = new ReadAheadWindow<>(selected(rows, selected),
                    row -> repeatsAtOnce(run, evaluator, waiting, row, repeats), Math.max(window, 2 * casesPerBatch));
        }
    }

    /** Every repeat of the case started at once; the future completes with all of them, in repeat order. */
    private static CompletableFuture<List<CaseOutcome>> repeatsAtOnce(EvaluationServices run, CaseEvaluator evaluator,
            TimeLimits limits, DatasetRow row, int repeats) {
        List<CompletableFuture<List<CaseOutcome>>> parts = new ArrayList<>();
        for (int repeat = 0; repeat < repeats; repeat++) {
            parts.add(new CaseRun(run, evaluator, limits, row, repeat, 1, run.waitingPool(), false).start());
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(done -> parts.stream()
                .flatMap(part -> part.join().stream()).toList());
    }

    /**
     * About how many bytes a row holds while it is in flight, from what it carries: each string's two bytes a
     * character (the case id, input, reference, recorded output, tags), {@link #UNSIZED_VALUE_BYTES} for a value
     * that is not a string and for each kind of agent data or metadata it has, and {@link #ROW_BYTES} besides. An
     * estimate, read in constant time per value. A case's output is not known when it starts; a case done while an
     * earlier one is still called holds it until it is reported, so a grown window can also hold a thousand answers of
     * a slow model's (a few megabytes of kilobyte answers).
     */
    static long weightOf(DatasetRow row) {
        EvalCase evalCase = row.evalCase().orElse(null);
        if (evalCase == null) {
            return ROW_BYTES + 2L * row.caseId().length() + UNSIZED_VALUE_BYTES;
        }
        long bytes = ROW_BYTES + 2L * evalCase.id().length() + valueBytes(evalCase.input())
                + valueBytes(evalCase.reference()) + valueBytes(evalCase.recordedOutput().orElse(null));
        for (String tag : evalCase.tags()) {
            bytes += 2L * tag.length();
        }
        if (!evalCase.metadata().isEmpty()) {
            bytes += UNSIZED_VALUE_BYTES;
        }
        if (!evalCase.scorerOptions().isEmpty()) {
            bytes += UNSIZED_VALUE_BYTES;
        }
        if (!evalCase.toolResults().isEmpty() || !evalCase.turns().isEmpty()
                || evalCase.expectedTrajectory().isPresent() || evalCase.simulatedUser().isPresent()) {
            bytes += UNSIZED_VALUE_BYTES;
        }
        return bytes;
    }

    private static long valueBytes(Object value) {
        if (value == null) {
            return 0;
        }
        return value instanceof String text ? 2L * text.length() : UNSIZED_VALUE_BYTES;
    }

    /** The rows the predicate accepts, asked lazily and before the row's model call. */
    private static Iterator<DatasetRow> selected(Iterator<DatasetRow> rows, Predicate<DatasetRow> selected) {
        return new Iterator<>() {
            private DatasetRow next;

            @Override
            public boolean hasNext() {
                while (next == null && rows.hasNext()) {
                    DatasetRow candidate = rows.next();
                    if (selected.test(candidate)) {
                        next = candidate;
                    }
                }
                return next != null;
            }

            @Override
            public DatasetRow next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                DatasetRow row = next;
                next = null;
                return row;
            }
        };
    }

    /**
     * While {@link #next} waits for the next case (a batch that has not answered yet), {@code waiting} is told every
     * {@code every}, on the thread that waits: for the console's progress, which may print only there.
     */
    public void whileWaiting(java.time.Duration every, Runnable waiting) {
        pipeline.whileWaiting(every.toNanos(), waiting);
    }

    @Override
    public boolean hasNext() {
        return pipeline.hasNext();
    }

    /**
     * The next case in dataset order, its results that met a problem every case shares settled: the first reports
     * it, the later ones are not run (see {@link SharedProblems}).
     */
    @Override
    public List<CaseOutcome> next() {
        List<CaseOutcome> evaluated = CaseOutcome.settled(pipeline.next(), problems);
        handedBack.accept(evaluated);
        return evaluated;
    }

    @Override
    public void close() {
        try {
            pipeline.close();
        }
        finally {
            rows.close();
        }
    }
}
