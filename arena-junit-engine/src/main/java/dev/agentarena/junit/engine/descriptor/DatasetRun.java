package dev.agentarena.junit.engine.descriptor;

import java.util.List;
import java.util.stream.Collectors;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node.DynamicTestExecutor;

import dev.agentarena.junit.engine.config.NodeMode;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.evaluation.CostEstimate;
import dev.agentarena.junit.engine.evaluation.DatasetEvaluation;
import dev.agentarena.junit.engine.evaluation.EvalRuntime;
import dev.agentarena.junit.engine.evaluation.EvaluatedCase;
import dev.agentarena.junit.engine.evaluation.Shard;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;

/**
 * Runs the cases of one container: has the eval evaluate the selected rows of the dataset on the container's model,
 * and registers a {@link CaseDescriptor} for each, in dataset order, as soon as it is ready. With
 * {@code arena.nodes=summary} or {@code failures} (see {@link NodeMode}) only the cases with a result that gets a test
 * of its own get a node, and {@link ScoreSummaries} registers one summary test per score after the last case.
 */
final class DatasetRun {

    private final ArenaExecutionContext context;
    private final CaseContainerDescriptor container;
    private final CaseSelection selection;
    private final CaseNodes nodes;
    /** The part of the dataset this run runs ({@code arena.shard}), or {@code null} for all of it. */
    private final Shard shard;

    DatasetRun(ArenaExecutionContext context, CaseContainerDescriptor container) {
        this.context = context;
        this.shard = context.run().shard().orElse(null);
        this.container = container;
        this.selection = container.selection();
        this.nodes = new CaseNodes(context.eval(), container.cases(), container.modelKey(), selection,
                context.displayNames(), context.nodes());
    }

    void run(DynamicTestExecutor executor) {
        EvalRuntime eval = context.eval();
        eval.estimateCostOnce(this::estimateTargets);
        ScoreSummaries summaries = context.nodes().summarises() ? new ScoreSummaries(container, nodes,
                context.run().listeners(), context.run().leaderboards().settings().reducer(),
                eval.definition().name(), context.lowScores().failTests()) : null;
        try (DatasetEvaluation cases = eval.evaluate(container.cases(), container.modelKey(), this::selected)) {
            while (cases.hasNext()) {
                EvaluatedCase evaluated = cases.next();
                if (summaries != null && !summaries.add(evaluated)) {
                    continue;
                }
                CaseDescriptor node = nodes.caseNode(container.getUniqueId(), evaluated);
                container.addChild(node);
                executor.execute(node);
                container.release(node);
            }
        }
        if (summaries != null) {
            summaries.register(executor);
        }
    }

    /**
     * Whether a row runs: in this run's shard, selected by unique id, and its case node included by the launcher's
     * filters. Asked before the row's model call.
     */
    private boolean selected(DatasetRow row) {
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
