package dev.agentarena.junit.engine.execution;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node.DynamicTestExecutor;

import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.datasets.DatasetStream;

/**
 * Runs one dataset on one model: reads the rows lazily, evaluates the selected ones ahead on the call pool, and
 * registers a {@link CaseDescriptor} for each, in dataset order, as soon as it is ready.
 */
final class DatasetRun {

    private final ArenaExecutionContext context;
    private final TestDescriptor container;
    private final DatasetSpec spec;
    private final CaseSelection selection;
    private final String modelKey;

    DatasetRun(ArenaExecutionContext context, TestDescriptor container, DatasetSpec spec, CaseSelection selection,
            String modelKey) {
        this.context = context;
        this.container = container;
        this.spec = spec;
        this.selection = selection;
        this.modelKey = modelKey;
    }

    void run(DynamicTestExecutor executor) {
        RunServices run = context.run();
        EvalRuntime eval = context.eval();
        CaseEvaluator evaluator = new CaseEvaluator(run, eval, modelKey);
        CaseNodes nodes = new CaseNodes(eval, spec, modelKey, selection);
        int repeats = Repeats.of(run.configuration(), eval.definition());
        run.estimateCostOnce(eval, this::estimateTargets, repeats);
        try (DatasetStream rows = openRows(run, eval, spec);
                CasePipeline<DatasetRow, List<CaseOutcome>> pipeline = new CasePipeline<>(selected(rows, nodes),
                        row -> evaluateRepeats(evaluator, row, repeats), run.callPool(), run.concurrency() * 2)) {
            while (pipeline.hasNext()) {
                CaseDescriptor node = nodes.caseNode(container.getUniqueId(), pipeline.next());
                container.addChild(node);
                executor.execute(node);
                if (container instanceof CaseContainer) {
                    ((CaseContainer) container).release(node);
                }
            }
        }
    }

    /** What the eval's class selected, for the cost estimate; just this run when the class is not above it. */
    private List<CostEstimate.Target> estimateTargets() {
        for (TestDescriptor node = container; node != null; node = node.getParent().orElse(null)) {
            if (node instanceof EvalClassDescriptor) {
                return ((EvalClassDescriptor) node).estimateTargets();
            }
        }
        return List.of(new CostEstimate.Target(modelKey, spec, selection));
    }

    /** The repeats of one case run one after the other: the pipeline runs different cases in parallel. */
    private static List<CaseOutcome> evaluateRepeats(CaseEvaluator evaluator, DatasetRow row, int repeats) {
        List<CaseOutcome> outcomes = new ArrayList<>(repeats);
        for (int repeat = 0; repeat < repeats; repeat++) {
            outcomes.add(evaluator.evaluate(row, repeat));
        }
        return outcomes;
    }

    /** Opens a dataset of the eval: its file, or the rows its method returns. */
    static DatasetStream openRows(RunServices run, EvalRuntime eval, DatasetSpec spec) {
        return spec.open(eval.definition().testClass(), run.configuration().projectRoot(), eval::instance);
    }

    /** The rows selected by unique id, and whose case nodes the launcher's filters include: only they are called. */
    private Iterator<DatasetRow> selected(Iterator<DatasetRow> rows, CaseNodes nodes) {
        if (selection.isAll() && !selection.filter().isActive()) {
            return rows;
        }
        return new Iterator<>() {
            private DatasetRow next;

            @Override
            public boolean hasNext() {
                while (next == null && rows.hasNext()) {
                    DatasetRow candidate = rows.next();
                    if (!selection.includesCase(candidate.caseId())) {
                        continue;
                    }
                    if (nodes.includes(container, candidate)) {
                        next = candidate;
                    }
                    else {
                        selection.markFilteredOut();
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
}
