package dev.agentarena.junit.engine.execution;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.FilePosition;
import org.junit.platform.engine.support.descriptor.FileSource;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.datasets.DatasetLocation;

/**
 * Builds the dynamic nodes of one dataset run: names, sources (the dataset line, for IDE navigation) and tags.
 */
final class CaseNodes {

    private final EvalRuntime eval;
    private final DatasetSpec spec;
    private final String modelKey;
    private final CaseSelection selection;

    CaseNodes(EvalRuntime eval, DatasetSpec spec, String modelKey, CaseSelection selection) {
        this.eval = eval;
        this.spec = spec;
        this.modelKey = modelKey;
        this.selection = selection;
    }

    CaseDescriptor caseNode(UniqueId parent, CaseOutcome outcome) {
        return caseNode(parent, List.of(outcome));
    }

    /** The node of one case with all its repeats, in repeat order. */
    CaseDescriptor caseNode(UniqueId parent, List<CaseOutcome> repeats) {
        CaseOutcome outcome = repeats.get(0);
        UniqueId id = parent.append(CaseDescriptor.SEGMENT, outcome.caseId());
        String legacyName = modelKey + "/" + spec.name() + "[" + outcome.caseId() + "]";
        return new CaseDescriptor(id, repeats, legacyName, source(outcome), tags(outcome.evalCase()), this);
    }

    boolean includesScorer(String caseId, String scorer) {
        return selection.includesScorer(caseId, scorer) && eval.includesScorer(scorer);
    }

    /** Whether a scorer's node is selected by its score name or by its segment (which may name one repeat). */
    boolean includesScorer(String caseId, String scorer, String segment) {
        return includesScorer(caseId, scorer)
                || (selection.includesScorer(caseId, segment) && eval.includesScorer(scorer));
    }

    EvalRuntime eval() {
        return eval;
    }

    String datasetName() {
        return spec.name();
    }

    private TestSource source(CaseOutcome outcome) {
        DatasetLocation location = outcome.row.location().orElse(null);
        if (location != null && location.file().isPresent()) {
            return FileSource.from(location.file().get().toFile(), FilePosition.from(Math.max(1, location.line())));
        }
        return null;
    }

    private static Set<TestTag> tags(EvalCase evalCase) {
        Set<TestTag> tags = new LinkedHashSet<>();
        if (evalCase != null) {
            for (String tag : evalCase.tags()) {
                String trimmed = tag.strip();
                if (TestTag.isValid(trimmed)) {
                    tags.add(TestTag.create(trimmed));
                }
            }
        }
        return tags;
    }

    static List<String> tagNames(EvalCase evalCase) {
        return evalCase == null ? List.of() : new ArrayList<>(evalCase.tags());
    }
}
