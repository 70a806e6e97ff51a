package dev.agentarena.junit.engine.descriptor;

import java.util.Map;
import java.util.Optional;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.hierarchical.Node;
import org.opentest4j.TestAbortedException;

import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.execution.RunServices;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.results.ScoreLine;

/**
 * A static test below an eval class, after its models, that summarises their results: the leaderboard, a gate or the
 * baseline comparison. Static, so it is counted at discovery and its unique id can be selected again (which runs the
 * whole class, the only way to recompute it).
 *
 * <p>It needs every result of the class: when only part of the class was selected or filtered it is aborted, saying
 * why, rather than judging a partial run.
 */
abstract class SummaryDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

    /** No source of its own: Surefire treats a test with a {@link ClassSource} as a class and leaves its name blank. */
    SummaryDescriptor(UniqueId uniqueId, String displayName) {
        super(uniqueId, ScoreLine.sanitize(displayName, 200));
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }

    /** The display name, unique within the class: Surefire names the test case after it. */
    @Override
    public String getLegacyReportingName() {
        return getDisplayName();
    }

    @Override
    public ArenaExecutionContext execute(ArenaExecutionContext context, DynamicTestExecutor dynamicTestExecutor)
            throws Exception {
        EvalClassDescriptor owner = (EvalClassDescriptor) getParent().orElseThrow();
        RunServices run = context.run();
        String eval = owner.definition().name();
        run.listeners().summaryStarted(eval, what());
        Optional<String> partial = owner.partialSelection();
        if (partial.isPresent()) {
            String reason = what() + " not applicable: " + partial.get();
            run.listeners().summarySkipped(eval, what(), reason);
            throw new TestAbortedException(reason);
        }
        summarise(context, run, eval, run.leaderboards().evalLeaderboard(eval));
        return context;
    }

    /** The engine's root, which holds what every eval class's summaries share (the run's gates). */
    ArenaEngineDescriptor engine() {
        TestDescriptor node = this;
        while (!(node instanceof ArenaEngineDescriptor)) {
            node = node.getParent().orElseThrow(() -> new IllegalStateException(getUniqueId()
                    + " is not below the agent-arena engine"));
        }
        return (ArenaEngineDescriptor) node;
    }

    /** What this node is, for messages: {@code leaderboard}, {@code gate ...}, {@code baseline}. */
    abstract String what();

    /** Summarises the eval's leaderboard: returns normally to pass, throws to fail or abort. */
    abstract void summarise(ArenaExecutionContext context, RunServices run, String eval, Leaderboard leaderboard)
            throws Exception;

    /** Publishes report entries on this test; blank values become {@code -}, which JUnit accepts. */
    void publish(ArenaExecutionContext context, Map<String, String> entries) {
        entries.replaceAll((key, value) -> value == null || value.isBlank() ? "-" : value);
        context.junit().reportingEntryPublished(this, ReportEntry.from(entries));
    }
}
