package dev.agentarena.junit.engine.descriptor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;
import org.opentest4j.AssertionFailedError;

import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.reporting.agreement.AgreementGate;
import dev.agentarena.junit.engine.reporting.agreement.AgreementText;
import dev.agentarena.junit.engine.reporting.agreement.ScorerAgreement;
import dev.agentarena.junit.engine.results.Decimals;
import dev.agentarena.junit.engine.results.ScoreLine;

/**
 * {@code agreement <scorer>}: one scorer's agreement with people's labels as a test, which publishes its figures and
 * fails, naming scorer, kappa, interval and n, when {@code arena.gates.min-agreement} asks for more. Its name holds no
 * figure, so that a rerun is the same test.
 */
final class AgreementScorerDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

    private final String eval;
    private final ScorerAgreement agreement;
    private final AgreementGate gate;

    AgreementScorerDescriptor(UniqueId uniqueId, String eval, ScorerAgreement agreement, AgreementGate gate) {
        super(uniqueId, ScoreLine.sanitize("agreement " + agreement.scorer(), 200));
        this.eval = eval;
        this.agreement = agreement;
        this.gate = gate;
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }

    @Override
    public String getLegacyReportingName() {
        return getDisplayName();
    }

    @Override
    public ArenaExecutionContext execute(ArenaExecutionContext context, DynamicTestExecutor dynamicTestExecutor) {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("scorer", agreement.scorer());
        entries.put("n", String.valueOf(agreement.n()));
        entries.put("kappa", AgreementText.kappa(agreement));
        entries.put("percent agreement", Decimals.fixed(agreement.percentAgreement().value(), 3));
        entries.put("spearman", agreement.graded() == 0 ? "-"
                : Double.isNaN(agreement.spearman().value()) ? "undefined"
                        : Decimals.fixed(agreement.spearman().value(), 3) + " (n=" + agreement.graded() + ")");
        entries.put("disagreements", String.valueOf(agreement.disagreementCount()));
        entries.put("minimum kappa", gate.minimum(agreement.scorer()).map(Decimals::shortest).orElse("-"));
        context.junit().reportingEntryPublished(this, ReportEntry.from(entries));
        Optional<String> failure = gate.failure(eval, agreement);
        if (failure.isPresent()) {
            throw new AssertionFailedError(failure.get());
        }
        return context;
    }
}
