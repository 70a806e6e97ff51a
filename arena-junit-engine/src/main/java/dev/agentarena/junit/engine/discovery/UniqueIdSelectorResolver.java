package dev.agentarena.junit.engine.discovery;

import static org.junit.platform.engine.support.discovery.SelectorResolver.Resolution.match;
import static org.junit.platform.engine.support.discovery.SelectorResolver.Resolution.unresolved;

import java.util.List;
import java.util.Optional;

import org.junit.platform.commons.support.ReflectionSupport;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.engine.support.discovery.SelectorResolver;

import dev.agentarena.junit.engine.execution.ArenaEngineDescriptor;
import dev.agentarena.junit.engine.execution.CaseSelection;
import dev.agentarena.junit.engine.execution.DatasetDescriptor;
import dev.agentarena.junit.engine.execution.EvalClassDescriptor;
import dev.agentarena.junit.engine.execution.EvalDefinition;
import dev.agentarena.junit.engine.execution.ModelDescriptor;

/**
 * Resolves unique ids down to one model, dataset, case or scorer, or to a summary test (which selects its class). Cases and scorers are registered only at
 * execution, so selecting one narrows the {@link CaseSelection} of its container: only that case's model call runs.
 */
final class UniqueIdSelectorResolver implements SelectorResolver {

    private final ArenaEngineDescriptor engine;

    UniqueIdSelectorResolver(ArenaEngineDescriptor engine) {
        this.engine = engine;
    }

    @Override
    public Resolution resolve(UniqueIdSelector selector, Context context) {
        List<UniqueId.Segment> segments = selector.getUniqueId().getSegments();
        if (segments.size() < 2 || !segments.get(1).getType().equals(EvalClassDescriptor.SEGMENT)) {
            return unresolved();
        }
        Optional<Class<?>> evalClass = ReflectionSupport.tryToLoadClass(segments.get(1).getValue()).toOptional();
        if (evalClass.isEmpty() || !EvalDefinition.isEval(evalClass.get())) {
            return unresolved();
        }
        Optional<EvalClassDescriptor> added = EvalClasses.add(evalClass.get(), context, engine);
        if (added.isEmpty()) {
            return unresolved();
        }
        EvalClassDescriptor evalDescriptor = added.get();
        if (segments.size() == 2) {
            evalDescriptor.selectAll();
            return match(Match.exact(evalDescriptor));
        }
        UniqueId.Segment model = segments.get(2);
        if (EvalClassDescriptor.isSummarySegment(model.getType())) {
            // a summary is recomputed from the whole class's results, so selecting it runs the whole class
            evalDescriptor.selectAll();
            return evalDescriptor.findByUniqueId(selector.getUniqueId())
                    .map(summary -> match(Match.exact(summary))).orElse(unresolved());
        }
        if (!model.getType().equals(ModelDescriptor.SEGMENT)
                || !evalDescriptor.definition().models().contains(model.getValue())) {
            return unresolved();
        }
        ModelDescriptor modelDescriptor = evalDescriptor.model(model.getValue());
        if (segments.size() == 3) {
            modelDescriptor.selectAll();
            return match(Match.exact(modelDescriptor));
        }
        int next = 3;
        CaseSelection selection;
        if (modelDescriptor.holdsCases()) {
            selection = modelDescriptor.selection();
        }
        else {
            UniqueId.Segment dataset = segments.get(3);
            Optional<DatasetDescriptor> datasetDescriptor = dataset.getType().equals(DatasetDescriptor.SEGMENT)
                    ? modelDescriptor.findDataset(dataset.getValue()) : Optional.empty();
            if (datasetDescriptor.isEmpty()) {
                return unresolved();
            }
            if (segments.size() == 4) {
                datasetDescriptor.get().selectAll();
                return match(Match.exact(datasetDescriptor.get()));
            }
            selection = datasetDescriptor.get().selection();
            next = 4;
        }
        UniqueId.Segment caseSegment = segments.get(next);
        if (!caseSegment.getType().equals("case") || segments.size() > next + 2) {
            return unresolved();
        }
        if (segments.size() == next + 1) {
            selection.selectCase(caseSegment.getValue());
        }
        else {
            UniqueId.Segment scorer = segments.get(next + 1);
            if (!scorer.getType().equals("scorer")) {
                return unresolved();
            }
            selection.selectScorer(caseSegment.getValue(), scorer.getValue());
        }
        return match(Match.exact(modelDescriptor.holdsCases() ? modelDescriptor
                : modelDescriptor.findDataset(segments.get(3).getValue()).get()));
    }
}
