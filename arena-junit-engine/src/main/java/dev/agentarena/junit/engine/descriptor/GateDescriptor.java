package dev.agentarena.junit.engine.descriptor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.platform.engine.UniqueId;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.execution.RunServices;
import dev.agentarena.junit.engine.reporting.gates.GateResult;
import dev.agentarena.junit.engine.reporting.gates.GateRule;
import dev.agentarena.junit.engine.reporting.gates.GateSpec;
import dev.agentarena.junit.engine.reporting.gates.Gates;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;

/**
 * One configured gate ({@code arena.gates.*}) on one eval class: fails with an {@link AssertionFailedError} naming
 * eval, model, scorer, value and threshold when the bound does not hold for some model or scorer, or when an accuracy
 * or pass-rate gate's target has more errored results than {@code max-errors} allows (none by default); aborted when
 * it matches nothing of the eval, or when more specific gates cover every target it matches. It is judged together
 * with the run's other gates, so the most specific gate of each target applies. Built without a rule, it carries the
 * error of an unreadable gate configuration.
 */
final class GateDescriptor extends SummaryDescriptor {

    private final GateRule rule;
    private final RuntimeException configurationError;

    GateDescriptor(UniqueId classId, GateRule rule) {
        super(ArenaUniqueIds.gate(classId, name(rule)), "gate " + name(rule) + " " + bound(rule));
        this.rule = rule;
        this.configurationError = null;
    }

    GateDescriptor(UniqueId classId, RuntimeException configurationError) {
        super(ArenaUniqueIds.gate(classId, "configuration"), "gate configuration");
        this.rule = null;
        this.configurationError = configurationError;
    }

    private static String name(GateRule rule) {
        return rule.key().substring(Constants.GATES_PREFIX.length());
    }

    private static String bound(GateRule rule) {
        switch (rule.kind()) {
            case MAX_COST_USD:
                return String.format(Locale.ROOT, "<= $%.4f", rule.threshold());
            case MAX_ERRORS:
                return String.format(Locale.ROOT, "<= %.0f", rule.threshold());
            case MAX_LATENCY_P50_MS:
            case MAX_LATENCY_P95_MS:
                return String.format(Locale.ROOT, "<= %.0f ms", rule.threshold());
            case MAX_ATTACK_SUCCESS:
            case MAX_OVER_REFUSAL:
                return String.format(Locale.ROOT, "<= %.3f", rule.threshold());
            default:
                return String.format(Locale.ROOT, ">= %.3f", rule.threshold());
        }
    }

    @Override
    String what() {
        return rule == null ? "gate configuration" : "gate " + rule.key();
    }

    @Override
    void summarise(ArenaExecutionContext context, RunServices run, String eval, Leaderboard leaderboard) {
        if (configurationError != null) {
            throw configurationError;
        }
        List<GateResult> results = Gates.evaluate(leaderboard, new GateSpec(engine().summaryPlan().gates), rule);
        List<String> failed = new ArrayList<>();
        boolean applied = false;
        for (GateResult result : results) {
            run.listeners().gateChecked(result);
            publish(context, new LinkedHashMap<>(Map.of("gate", result.message())));
            applied |= result.status() != GateResult.Status.UNMATCHED;
            if (result.failed()) {
                failed.add(result.message());
            }
        }
        if (!failed.isEmpty()) {
            throw new AssertionFailedError(String.join("\n", failed));
        }
        if (!applied) {
            throw new TestAbortedException(results.isEmpty() ? "gate not applied: more specific gates cover every "
                    + "model and scorer of " + eval + " that " + rule.key() + " matches" : results.get(0).message());
        }
    }
}
