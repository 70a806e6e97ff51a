package dev.agentarena.junit.engine.descriptor;

import java.util.List;
import java.util.stream.Collectors;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node.DynamicTestExecutor;

import dev.agentarena.junit.engine.config.NodeMode;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.evaluation.CaseOutcome;
import dev.agentarena.junit.engine.evaluation.CostEstimate;
import dev.agentarena.junit.engine.evaluation.DatasetEvaluation;
import dev.agentarena.junit.engine.evaluation.EvalRuntime;
import dev.agentarena.junit.engine.evaluation.ScorerResult;
import dev.agentarena.junit.engine.evaluation.Shard;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.reporting.RunListener;
import dev.agentarena.junit.engine.reporting.RunningDataset;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * Runs the cases of one container: has the eval evaluate the selected rows of the dataset on the container's model,
 * and registers a {@link CaseDescriptor} for each, in dataset order, as soon as it is ready. With
 * {@code arena.nodes=summary} or {@code failures} (see {@link NodeMode}) only the cases with a result that gets a test
 * of its own get a node, and {@link ScoreSummaries} registers one summary test per score after the last case. The run's
 * listeners hear when the cases start, each case done and the end, for the console's progress lines.
 */
final class DatasetRun {

    /** How often a run whose cases wait on batches asks whether to say where they stand. */
    private static final java.time.Duration WAITING_CHECK = java.time.Duration.ofSeconds(1);

    private final ArenaExecutionContext context;
    private final CaseContainerDescriptor container;
    private final CaseSelection selection;
    private final CaseNodes nodes;
    /** The part of the dataset this run runs ({@code arena.shard}), or {@code null} for all of it. */
    private final Shard shard;
    /**
     * Whether every row runs (no shard, no unique-id selection, no launcher filter): then {@link #selected} asks
     * nothing per row. The selection is complete once discovery ends, so this holds for the whole run.
     */
    private final boolean everyRow;

    DatasetRun(ArenaExecutionContext context, CaseContainerDescriptor container) {
        this.context = context;
        this.shard = context.run().shard().orElse(null);
        this.container = container;
        this.selection = container.selection();
        this.nodes = new CaseNodes(context.eval(), container.cases(), container.modelKey(), selection,
                context.displayNames(), context.nodes());
        this.everyRow = countsEveryRow();
    }

    void run(DynamicTestExecutor executor) {
        EvalRuntime eval = context.eval();
        eval.estimateCostOnce(this::estimateTargets);
        RunListener listeners = context.run().listeners();
        ScoreSummaries summaries = context.nodes().summarises() ? new ScoreSummaries(container, nodes,
                listeners, context.run().leaderboards().settings().reducer(),
                eval.definition().name(), context.lowScores().failTests()) : null;
        RunningDataset progress = new RunningDataset(eval.definition().name(), container.modelKey(),
                container.cases().name());
        listeners.casesStarted(progress);
        Thread counting = context.run().progress() ? countInBackground(eval, listeners, progress) : null;
        try (DatasetEvaluation cases = eval.evaluate(container.cases(), container.modelKey(), this::selected)) {
            if (context.run().progress() && eval.batches(container.modelKey())) {
                // a batch takes minutes to hours without a case answered: say where it stands meanwhile
                cases.whileWaiting(WAITING_CHECK, () -> listeners.casesWaiting(progress,
                        eval.waitingOn(container.modelKey())));
            }
            while (cases.hasNext()) {
                List<CaseOutcome> evaluated = cases.next();
                if (summaries != null && !summaries.add(evaluated)) {
                    finished(listeners, progress, evaluated);
                    continue;
                }
                CaseDescriptor node = nodes.caseNode(container.getUniqueId(), evaluated);
                container.addChild(node);
                executor.execute(node);
                container.release(node);
                finished(listeners, progress, evaluated);
            }
        }
        finally {
            if (counting != null) {
                counting.interrupt();
            }
            listeners.casesFinished(progress);
        }
        if (summaries != null) {
            summaries.register(executor);
        }
    }

    /**
     * Counts the rows this run will evaluate on a thread of its own, for the console's progress (a dataset file only:
     * a dataset method is not called twice); the cases do not wait for it, and it stops when they are done.
     */
    private Thread countInBackground(EvalRuntime eval, RunListener listeners, RunningDataset progress) {
        Thread thread = new Thread(() -> {
            try {
                eval.countSelected(container.cases(), this::counted, countsEveryRow())
                        .ifPresent(total -> listeners.casesCounted(progress, total));
            }
            catch (RuntimeException e) {
                // a total the progress line does without
            }
        }, "arena-progress-count");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** A case is done: how many of its results ended in an error, and what its calls cost (once per repeat). */
    private static void finished(RunListener listeners, RunningDataset progress, List<CaseOutcome> evaluated) {
        int errors = 0;
        double costUsd = 0;
        for (int r = 0; r < evaluated.size(); r++) {
            CaseOutcome repeat = evaluated.get(r);
            double callCost = 0;
            for (int k = 0; k < repeat.resultCount(); k++) {
                ScorerResult result = repeat.result(k);
                if (result.record().status() == ResultStatus.ERROR) {
                    errors++;
                }
                // every result of a repeat carries the cost of the same calls
                callCost = Math.max(callCost, result.record().costUsd());
            }
            costUsd += callCost;
        }
        listeners.caseFinished(progress, errors, costUsd);
    }

    /** Whether {@link #counted} accepts every row, so that they can be counted without being read. */
    private boolean countsEveryRow() {
        return shard == null && selection.isAll() && nodes.includesEveryRow();
    }

    /** What {@link #selected} says, without noting what the filters left out: for counting, on another thread. */
    private boolean counted(DatasetRow row) {
        return (shard == null || shard.includes(row.caseId())) && selection.includesCase(row.caseId())
                && nodes.includes(container, row);
    }

    /**
     * Whether a row runs: in this run's shard, selected by unique id, and its case node included by the launcher's
     * filters. Asked before the row's model call.
     */
    private boolean selected(DatasetRow row) {
        if (everyRow) {
            // the usual run: no lock of the selection's and no filter per row
            return true;
        }
        if (shard != null && !shard.includes(row.caseId())) {
            return false;
        }
        if (!selection.includesCase(row.caseId())) {
            return false;
        }
        if (nodes.includes(container, row)) {
            return true;
        }
        selection.markFilteredOut();
        return false;
    }

    /**
     * What the eval's class selected, for the cost estimate (within this run's shard); just this container when the
     * class is not above it.
     */
    private List<CostEstimate.Target> estimateTargets() {
        List<CostEstimate.Target> targets = List.of(new CostEstimate.Target(container.modelKey(), container.cases(),
                selection::includesCase));
        for (TestDescriptor node = container; node != null; node = node.getParent().orElse(null)) {
            if (node instanceof EvalClassDescriptor) {
                targets = ((EvalClassDescriptor) node).estimateTargets();
                break;
            }
        }
        if (shard == null) {
            return targets;
        }
        return targets.stream().map(target -> new CostEstimate.Target(target.model(), target.spec(),
                id -> shard.includes(id) && target.selected().test(id))).collect(Collectors.toList());
    }
}
