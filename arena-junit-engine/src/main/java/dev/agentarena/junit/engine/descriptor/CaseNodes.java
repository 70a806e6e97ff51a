package dev.agentarena.junit.engine.descriptor;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.FilePosition;
import org.junit.platform.engine.support.descriptor.FileSource;
import org.junit.platform.engine.support.descriptor.MethodSource;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.config.DisplayNames;
import dev.agentarena.junit.engine.config.NodeMode;
import dev.agentarena.junit.engine.datasets.DatasetLocation;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.datasets.EditableSource;
import dev.agentarena.junit.engine.definition.DatasetSpec;
import dev.agentarena.junit.engine.evaluation.EvalRuntime;
import dev.agentarena.junit.engine.evaluation.CaseOutcome;
import dev.agentarena.junit.engine.evaluation.ScorerResult;

/**
 * Builds the dynamic nodes of one dataset run: names, sources (the dataset line, for IDE navigation) and tags, and
 * decides which case and scorer nodes the selection and the launcher's filters include.
 */
final class CaseNodes {

    private final EvalRuntime eval;
    private final DatasetSpec spec;
    private final String modelKey;
    private final CaseSelection selection;
    private final DisplayNames displayNames;
    private final NodeMode mode;
    private final EditableSource editable = new EditableSource();
    // the dataset file's source without a position, for the last file asked: a case's source is this one with the
    // case's line, since FileSource.from makes the path canonical, which costs a system call per directory of it, for
    // each case twice (its filter, then its node)
    private Path lastFile;
    private FileSource lastFileSource;

    CaseNodes(EvalRuntime eval, DatasetSpec spec, String modelKey, CaseSelection selection,
            DisplayNames displayNames, NodeMode mode) {
        this.eval = eval;
        this.spec = spec;
        this.modelKey = modelKey;
        this.selection = selection;
        this.displayNames = displayNames;
        this.mode = mode;
    }

    /** The node of one case with all its repeats. */
    CaseDescriptor caseNode(UniqueId parent, List<CaseOutcome> evaluated) {
        CaseOutcome first = evaluated.get(0);
        String legacyName = modelKey + "/" + spec.name() + "[" + first.caseId() + "]";
        return new CaseDescriptor(ArenaUniqueIds.evalCase(parent, first.caseId()), evaluated, legacyName,
                source(first.row()), tags(first.evalCase(), eval::redact), this);
    }

    /** Whether the launcher's filters include every row's case node: they filter nothing. */
    boolean includesEveryRow() {
        return !selection.filter().isActive();
    }

    /** Whether the launcher's filters include the row's case node; asked before the case's model call. */
    boolean includes(TestDescriptor container, DatasetRow row) {
        if (!selection.filter().isActive()) {
            // no filter to ask: the node's id, name, source and masked tags would be built for nothing, per case
            return true;
        }
        return selection.filter().includes(container, ArenaUniqueIds.evalCase(container.getUniqueId(), row.caseId()),
                CaseDescriptor.displayName(row.caseId()), source(row), tags(row.evalCase().orElse(null), eval::redact));
    }

    /**
     * Whether the selection includes a score's result of a case's repeat: by the score's name, or by its segment
     * {@code score#r<n>} when the case has several repeats (formed only when the name alone is not selected).
     */
    boolean includesScorer(String caseId, String scorer, int repeat, int repeats) {
        return eval.includesScorer(scorer) && (selection.includesScorer(caseId, scorer)
                || repeats > 1 && selection.includesScorer(caseId, scorer + "#r" + (repeat + 1)));
    }

    /** Whether a scorer's node is selected by its score name or by its segment (which may name one repeat). */
    boolean includesScorer(String caseId, String scorer, String segment) {
        return eval.includesScorer(scorer)
                && (selection.includesScorer(caseId, scorer) || selection.includesScorer(caseId, segment));
    }

    /** Whether a result gets a test of its own ({@code arena.nodes}); a summary test stands for the others. */
    boolean ownTest(ScorerResult result) {
        return mode.ownTest(result.record().status());
    }

    DisplayNames displayNames() {
        return displayNames;
    }

    /**
     * Where an IDE jumps from a case: its line in the dataset file, or the dataset method. Only a file source is
     * passed on to scorer tests: Surefire names a test with a method source after the method, which would merge all
     * of a dataset's tests into one.
     */
    private TestSource source(DatasetRow row) {
        DatasetLocation location = row.location().orElse(null);
        if (location != null && location.file().isPresent()) {
            return fileSource(location.file().get()).withPosition(FilePosition.from(Math.max(1, location.line())));
        }
        return spec.method() == null ? null : MethodSource.from(spec.method());
    }

    private synchronized FileSource fileSource(Path file) {
        if (!file.equals(lastFile)) {
            lastFileSource = FileSource.from(editable.of(file).toFile());
            lastFile = file;
        }
        return lastFileSource;
    }

    /** A case's tags as JUnit tags; tags that JUnit's syntax rejects are left out. */
    static Set<TestTag> tags(EvalCase evalCase) {
        return tags(evalCase, UnaryOperator.identity());
    }

    /** A case's tags as JUnit tags, each with the run's secrets masked. */
    static Set<TestTag> tags(EvalCase evalCase, UnaryOperator<String> mask) {
        if (evalCase == null || evalCase.tags().isEmpty()) {
            return Set.of();
        }
        Set<TestTag> tags = new LinkedHashSet<>();
        for (String tag : evalCase.tags()) {
            String trimmed = mask.apply(tag).strip();
            if (TestTag.isValid(trimmed)) {
                tags.add(TestTag.create(trimmed));
            }
        }
        // Every node keeps its tags until the run ends: a shared empty set or a singleton costs far less per case.
        return tags.size() > 1 ? Collections.unmodifiableSet(tags) : Set.copyOf(tags);
    }
}
