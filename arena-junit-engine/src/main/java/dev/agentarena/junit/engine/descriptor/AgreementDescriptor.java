package dev.agentarena.junit.engine.descriptor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.platform.engine.UniqueId;
import org.opentest4j.TestAbortedException;

import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.execution.RunServices;
import dev.agentarena.junit.engine.reporting.agreement.EvalAgreement;
import dev.agentarena.junit.engine.reporting.agreement.ScorerAgreement;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;

/**
 * {@code agreement}: the container, below an eval class with human labels ({@code @HumanLabels} or
 * {@code arena.labels.file}), of one {@link AgreementScorerDescriptor} test per scorer that graded labelled outputs,
 * registered once the models ran, since only then is it known which scorers have labels. It exists so that a judge's
 * agreement with people is a JUnit test of its own, which {@code arena.gates.min-agreement} fails.
 */
final class AgreementDescriptor extends SummaryDescriptor {

    static final String WHAT = "agreement";

    AgreementDescriptor(UniqueId classId) {
        super(ArenaUniqueIds.agreement(classId), "agreement with human labels");
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    /** Its tests are known only once the models ran: it must survive discovery's pruning of empty containers. */
    @Override
    public boolean mayRegisterTests() {
        return true;
    }

    @Override
    String what() {
        return WHAT;
    }

    @Override
    public ArenaExecutionContext execute(ArenaExecutionContext context, DynamicTestExecutor dynamicTestExecutor)
            throws Exception {
        EvalClassDescriptor owner = (EvalClassDescriptor) getParent().orElseThrow();
        RunServices run = context.run();
        String eval = owner.definition().name();
        run.listeners().summaryStarted(eval, WHAT);
        Optional<String> partial = owner.partialSelection();
        if (partial.isPresent()) {
            // a shard's labelled outputs are part of the run's: MergeShards measures them all
            String reason = owner.shardOnly().isPresent() ? WHAT + " measured once the shards are merged: "
                    + partial.get() : WHAT + " not applicable: " + partial.get();
            run.listeners().summarySkipped(eval, WHAT, reason);
            throw new TestAbortedException(reason);
        }
        SummaryPlan plan = engine().summaryPlan();
        if (plan.agreementGateError != null) {
            throw plan.agreementGateError;
        }
        EvalAgreement agreement = run.leaderboards().agreement(eval).orElseThrow(() -> new TestAbortedException(
                WHAT + " not measured: the labels of " + eval + " were not read (see the eval's error)"));
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("labels", String.valueOf(agreement.labels()));
        entries.put("labelled outputs", String.valueOf(agreement.labelledOutputs()));
        entries.put("stale labels", String.valueOf(agreement.stale()));
        entries.put("unmatched labels", String.valueOf(agreement.unmatched()));
        publish(context, entries);
        if (agreement.staleWarning() != null) {
            run.listeners().warning(agreement.staleWarning());
        }
        if (agreement.unmatchedWarning() != null) {
            run.listeners().warning(agreement.unmatchedWarning());
        }
        if (agreement.scorers().isEmpty()) {
            run.listeners().warning(eval + ": no scorer graded an output that has a current label ("
                    + agreement.labels() + " labels, " + agreement.stale() + " stale): no agreement to measure");
        }
        for (ScorerAgreement scorer : agreement.scorers()) {
            AgreementScorerDescriptor test = new AgreementScorerDescriptor(
                    ArenaUniqueIds.agreementScorer(getUniqueId(), scorer.scorer()), eval, scorer, plan.agreementGate);
            addChild(test);
            dynamicTestExecutor.execute(test);
        }
        return context;
    }

    @Override
    void summarise(ArenaExecutionContext context, RunServices run, String eval, Leaderboard leaderboard) {
        // execute does it all: the scorers' tests are registered as they become known
    }
}
