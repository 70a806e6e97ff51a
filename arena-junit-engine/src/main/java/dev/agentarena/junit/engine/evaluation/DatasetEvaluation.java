package dev.agentarena.junit.engine.evaluation;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.datasets.DatasetStream;
import dev.agentarena.junit.engine.evaluation.scheduling.CaseScheduler;
import dev.agentarena.junit.engine.evaluation.scheduling.Lane;
import dev.agentarena.junit.engine.evaluation.scheduling.ReadAheadWindow;
import dev.agentarena.junit.engine.models.ModelEndpoint.Batching;
import dev.agentarena.junit.engine.models.ModelEndpoint.Pacing;

/**
 * One dataset evaluated on one model: reads the rows lazily, evaluates the selected ones ahead where the
 * {@link CaseScheduler} places them, and hands each case back, with all its repeats, in dataset order, as soon as it
 * is ready.
 *
 * <p>Close it to stop: what is still in flight is cancelled and the dataset is closed.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DatasetEvaluation implements Iterator<List<CaseOutcome>>, AutoCloseable {

    private final DatasetStream rows;
    private final ReadAheadWindow<DatasetRow, List<CaseOutcome>> pipeline;
    private final SharedProblems problems;
    private final Consumer<List<CaseOutcome>> handedBack;

    /**
     * The repeats of one case run one after the other (a {@link CaseRun}), different cases in parallel, each on the
     * lane the run's {@link CaseScheduler} chose for it; on a batched model's lane every repeat at once, its task's
     * time limit raised by the batch's longest wait.
     */
    DatasetEvaluation(EvaluationServices run, CaseEvaluator evaluator, TimeLimits limits, DatasetStream rows,
            Predicate<DatasetRow> selected, int repeats, SharedProblems problems, Optional<Batching> batching,
            Optional<Pacing> pacing, Consumer<List<CaseOutcome>> handedBack) {
        this.rows = rows;
        this.problems = problems;
        this.handedBack = handedBack;
        CaseScheduler.Workload work = new CaseScheduler.Workload(evaluator.modelKey(), evaluator.modelComputesOnly(),
                evaluator::computesOnly, batching, pacing, repeats);
        this.pipeline = run.scheduler().schedule(selected(rows, selected), work, new CaseScheduler.Cases<>() {
            /** The limits raised by a batch's wait, made once. */
            private TimeLimits raised;

            @Override
            public CompletableFuture<List<CaseOutcome>> start(DatasetRow row, int firstRepeat, int count, Lane lane) {
                return new CaseRun(run, evaluator, limitsOn(lane), row, firstRepeat, count, lane).start();
            }

            private TimeLimits limitsOn(Lane lane) {
                if (lane.taskWait().isEmpty()) {
                    return limits;
                }
                if (raised == null) {
                    raised = limits.withTaskWait(lane.taskWait().get());
                }
                return raised;
            }

            @Override
            public List<CaseOutcome> joined(DatasetRow row, List<List<CaseOutcome>> parts) {
                return parts.stream().flatMap(List::stream).toList();
            }
        });
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
