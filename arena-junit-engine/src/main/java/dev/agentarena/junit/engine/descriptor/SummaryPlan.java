package dev.agentarena.junit.engine.descriptor;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.reporting.agreement.AgreementGate;
import dev.agentarena.junit.engine.reporting.baseline.BaselineSettings;
import dev.agentarena.junit.engine.reporting.gates.GateRule;
import dev.agentarena.junit.engine.reporting.gates.GateSpec;

/**
 * Which summary nodes each eval class gets, read from the configuration at discovery (cheaply: keys only, and
 * whether the baseline file exists). A configuration error does not break discovery: the node it concerns fails with
 * it at execution.
 */
final class SummaryPlan {

    final boolean leaderboardTest;
    final List<GateRule> gates;
    final RuntimeException gatesError;
    final BaselineSettings baseline;
    final RuntimeException baselineError;
    /** The agreement gate ({@code arena.gates.min-agreement}), or {@code null} when it cannot be read. */
    AgreementGate agreementGate;
    RuntimeException agreementGateError;
    /** Whether {@code arena.labels.file} is set: then every eval class gets an {@code agreement} container. */
    boolean labelsFile;

    private SummaryPlan(boolean leaderboardTest, List<GateRule> gates, RuntimeException gatesError,
            BaselineSettings baseline, RuntimeException baselineError) {
        this.leaderboardTest = leaderboardTest;
        this.gates = gates;
        this.gatesError = gatesError;
        this.baseline = baseline;
        this.baselineError = baselineError;
    }

    static SummaryPlan from(ArenaConfiguration configuration) {
        boolean leaderboard;
        try {
            leaderboard = configuration.typed().leaderboardTests();
        }
        catch (RuntimeException e) {
            leaderboard = true;
        }
        List<GateRule> gates = List.of();
        RuntimeException gatesError = null;
        try {
            gates = GateSpec.from(configuration, configuration.parameterKeys()).rules();
        }
        catch (RuntimeException e) {
            gatesError = e;
        }
        BaselineSettings baseline = null;
        RuntimeException baselineError = null;
        try {
            BaselineSettings settings = BaselineSettings.from(configuration);
            if (settings.update() || settings.required() || Files.isRegularFile(settings.path())) {
                baseline = settings;
            }
        }
        catch (RuntimeException e) {
            baselineError = e;
        }
        SummaryPlan plan = new SummaryPlan(leaderboard, gates, gatesError, baseline, baselineError);
        try {
            plan.agreementGate = AgreementGate.from(GateSpec.settings(configuration, configuration.parameterKeys()));
        }
        catch (RuntimeException e) {
            plan.agreementGateError = e;
        }
        plan.labelsFile = configuration.get(Constants.LABELS_FILE).filter(name -> !name.isBlank()).isPresent();
        return plan;
    }

    /**
     * The gates that may concern an eval: those without a selector (except a whole-run cost gate), and those whose
     * selector starts with the eval's name or {@code *}. Names may contain dots, so this is a first cut: a gate that
     * matches nothing of the eval once it ran is reported as not applied. The red team's gates concern red-team evals
     * alone: those of one segment (a category, or an eval) each of them, the others as above.
     */
    List<GateRule> gatesFor(String eval, boolean redTeam) {
        List<GateRule> rules = new ArrayList<>();
        for (GateRule rule : gates) {
            String selector = rule.selector();
            if (rule.kind().isRedTeam()) {
                // one segment may be a category (or a misspelt one, which must show as not applied)
                if (redTeam && (!selector.contains(".") || selector.startsWith("*.") || selector.equals(eval)
                        || selector.startsWith(eval + "."))) {
                    rules.add(rule);
                }
                continue;
            }
            boolean wholeRun = selector.isEmpty() && rule.kind() == GateRule.Kind.MAX_COST_USD;
            if (!wholeRun && (selector.isEmpty() || selector.equals("*") || selector.startsWith("*.")
                    || selector.equals(eval) || selector.startsWith(eval + "."))) {
                rules.add(rule);
            }
        }
        return rules;
    }

    /** Gates over the whole run, checked at its end: {@code arena.gates.max-cost-usd} without a selector. */
    List<GateRule> runGates() {
        List<GateRule> rules = new ArrayList<>();
        for (GateRule rule : gates) {
            if (rule.selector().isEmpty() && rule.kind() == GateRule.Kind.MAX_COST_USD) {
                rules.add(rule);
            }
        }
        return rules;
    }

    boolean baselineNode() {
        return baseline != null || baselineError != null;
    }
}
