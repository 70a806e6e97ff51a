package dev.agentarena.junit.engine.execution;

import java.util.HashSet;
import java.util.Set;

import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

import dev.agentarena.junit.engine.reporting.ScoreLine;

/**
 * One case on one model, registered once its output is scored; registers one {@link ScorerDescriptor} per score.
 */
final class CaseDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

    static final String SEGMENT = "case";

    // Released once the scorer nodes are registered: a run of a million cases keeps every node until it ends.
    private CaseOutcome outcome;
    private final String legacyName;
    private final Set<TestTag> tags;
    private final CaseNodes nodes;

    CaseDescriptor(UniqueId uniqueId, CaseOutcome outcome, String legacyName, TestSource source, Set<TestTag> tags,
            CaseNodes nodes) {
        super(uniqueId, displayName(outcome.caseId()), source);
        this.outcome = outcome;
        this.legacyName = legacyName;
        this.tags = tags;
        this.nodes = nodes;
    }

    static String displayName(String caseId) {
        return ScoreLine.sanitize(caseId, 120);
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
        Set<String> used = new HashSet<>();
        for (ScoreOutcome score : outcome.scores) {
            if (!nodes.includesScorer(outcome.caseId(), score.name())) {
                continue;
            }
            String segment = score.name();
            for (int n = 2; !used.add(segment); n++) {
                segment = score.name() + "#" + n;
            }
            ScorerDescriptor node = new ScorerDescriptor(getUniqueId().append(ScorerDescriptor.SEGMENT, segment),
                    outcome, score, legacyName + "/" + segment, getSource().orElse(null), tags, nodes);
            addChild(node);
            dynamicTestExecutor.execute(node);
        }
        outcome = null;
        return context;
    }
}
