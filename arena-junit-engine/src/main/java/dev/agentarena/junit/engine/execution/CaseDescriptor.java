package dev.agentarena.junit.engine.execution;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.FileSource;
import org.junit.platform.engine.support.hierarchical.Node;

import dev.agentarena.junit.engine.reporting.ScoreLine;

/**
 * One case on one model, registered once its output is scored; registers one {@link ScorerDescriptor} per score.
 *
 * <p>With repeats it holds every repeat of the case: its scorer nodes are named {@code <score>#r<k>} for the k-th
 * repeat (repeat index k − 1 in {@code results.jsonl}), and its display name and report entries carry the case's
 * flakiness. With one repeat the tree is the same as without repeats, so unique ids stay stable.
 */
final class CaseDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

    static final String SEGMENT = "case";

    // Released once the scorer nodes are registered: a run of a million cases keeps every node until it ends.
    private List<CaseOutcome> outcomes;
    private final String legacyName;
    private final Set<TestTag> tags;
    private final CaseNodes nodes;

    CaseDescriptor(UniqueId uniqueId, List<CaseOutcome> outcomes, String legacyName, TestSource source,
            Set<TestTag> tags, CaseNodes nodes) {
        super(uniqueId, displayName(outcomes), source);
        this.outcomes = List.copyOf(outcomes);
        this.legacyName = legacyName;
        this.tags = tags;
        this.nodes = nodes;
    }

    static String displayName(String caseId) {
        return ScoreLine.sanitize(caseId, 120);
    }

    private static String displayName(List<CaseOutcome> outcomes) {
        String caseId = displayName(outcomes.get(0).caseId());
        return outcomes.size() == 1 ? caseId
                : caseId + " ×" + outcomes.size() + ": " + new CaseRepeats(outcomes).summary();
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    @Override
    public boolean mayRegisterTests() {
        return true;
    }

    @Override
    public Set<TestTag> getTags() {
        return tags;
    }

    @Override
    public String getLegacyReportingName() {
        return legacyName;
    }

    @Override
    public ArenaExecutionContext execute(ArenaExecutionContext context, DynamicTestExecutor dynamicTestExecutor) {
        if (outcomes.size() > 1) {
            context.run().listener().reportingEntryPublished(this,
                    ReportEntry.from(new CaseRepeats(outcomes).reportEntries()));
        }
        Set<String> used = new HashSet<>();
        for (CaseOutcome outcome : outcomes) {
            String suffix = outcomes.size() == 1 ? "" : "#r" + (outcome.repeat + 1);
            for (ScoreOutcome score : outcome.scores) {
                String base = score.name() + suffix;
                if (!nodes.includesScorer(outcome.caseId(), score.name(), base)) {
                    continue;
                }
                String segment = base;
                for (int n = 2; !used.add(segment); n++) {
                    segment = base + "#" + n;
                }
                String scorerLegacyName = legacyName + "/" + segment;
                ScorerDescriptor node = new ScorerDescriptor(getUniqueId().append(ScorerDescriptor.SEGMENT, segment),
                        outcome, score, scorerLegacyName, context.run().displayNames().full() ? scorerLegacyName : segment,
                        getSource().filter(FileSource.class::isInstance).orElse(null), tags, nodes,
                        context.run().redactor());
                addChild(node);
                dynamicTestExecutor.execute(node);
            }
        }
        outcomes = null;
        return context;
    }
}
