package dev.agentarena.junit.engine.descriptor;

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

import dev.agentarena.junit.engine.evaluation.CaseOutcome;
import dev.agentarena.junit.engine.evaluation.ScorerResult;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.results.ScoreLine;
import dev.agentarena.junit.engine.results.SinkText;

/**
 * One case on one model, registered once its output is scored; registers one {@link ScorerDescriptor} per score.
 *
 * <p>With repeats it holds every repeat of the case: its scorer nodes are named {@code <score>#r<k>} for the k-th
 * repeat (repeat index k − 1 in {@code results.jsonl}), and its display name and report entries carry the case's
 * flakiness. With one repeat the tree is the same as without repeats, so unique ids stay stable.
 */
final class CaseDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

    // Released once the scorer nodes are registered: a run of a million cases keeps every node until it ends.
    private List<CaseOutcome> evaluated;
    private final String legacyName;
    private final Set<TestTag> tags;
    private final CaseNodes nodes;

    CaseDescriptor(UniqueId uniqueId, List<CaseOutcome> evaluated, String legacyName, TestSource source,
            Set<TestTag> tags, CaseNodes nodes) {
        super(uniqueId, displayName(evaluated), source);
        this.evaluated = evaluated;
        // Surefire names the test in its XML after it: the case id comes from a dataset
        this.legacyName = SinkText.name(legacyName, 1000);
        this.tags = tags;
        this.nodes = nodes;
    }

    static String displayName(String caseId) {
        return ScoreLine.sanitize(caseId, 120);
    }

    private static String displayName(List<CaseOutcome> evaluated) {
        String caseId = displayName(evaluated.get(0).caseId());
        int repeats = evaluated.size();
        return repeats == 1 ? caseId : caseId + " ×" + repeats + ": " + CaseOutcome.repeatSummary(evaluated);
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
        List<CaseOutcome> repeats = evaluated;
        if (repeats.size() > 1) {
            context.junit().reportingEntryPublished(this, ReportEntry.from(CaseOutcome.repeatEntries(repeats)));
        }
        Set<String> used = new HashSet<>();
        TestSource scorerSource = getSource().filter(FileSource.class::isInstance).orElse(null);
        for (CaseOutcome outcome : repeats) {
            String suffix = repeats.size() == 1 ? "" : "#r" + (outcome.repeat() + 1);
            for (ScorerResult result : outcome.results()) {
                String score = result.record().scorer();
                String base = score + suffix;
                if (!nodes.includesScorer(outcome.caseId(), score, base)) {
                    continue;
                }
                String segment = base;
                for (int n = 2; !used.add(segment); n++) {
                    segment = base + "#" + n;
                }
                if (!nodes.ownTest(result)) {
                    // arena.nodes: a summary test stands for it (its segment is still taken, so ids stay stable)
                    continue;
                }
                String scorerLegacyName = legacyName + "/" + segment;
                ScorerDescriptor node = new ScorerDescriptor(ArenaUniqueIds.scorer(getUniqueId(), segment), result,
                        scorerLegacyName, segment, nodes.displayNames(), scorerSource, tags,
                        context.lowScores().failTests());
                addChild(node);
                dynamicTestExecutor.execute(node);
            }
        }
        evaluated = null;
        return context;
    }
}
