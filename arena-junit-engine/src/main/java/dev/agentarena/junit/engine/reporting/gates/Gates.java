package dev.agentarena.junit.engine.reporting.gates;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.redteam.Probe;
import dev.agentarena.junit.engine.reporting.arena.AttackTally;
import dev.agentarena.junit.engine.reporting.leaderboard.EvalLeaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.ModelEntry;
import dev.agentarena.junit.engine.reporting.leaderboard.ScorerEntry;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;

/** Evaluates a {@link GateSpec} against a leaderboard. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Gates {

    private static final String ANY = "*";

    private Gates() {
    }

    /**
     * One result per gated target, in rule order, then any unmatched or ambiguous rules.
     *
     * <p>Accuracy, pass-rate and errored-result gates apply per eval and model (no scorer in the selector) or per
     * eval, model and scorer; within each target the most specific rule wins, ties going to the strictest bound. Cost
     * gates apply to the run, to an eval (all models together) or to one model of one eval.
     *
     * <p>Errored results are kept out of accuracy and pass rate, so an accuracy or pass-rate gate also fails when its
     * target has more errored results than allowed: by the most specific {@code max-errors} rule of the target (for a
     * scorer, of the scorer, else of its model), none by default.
     */
    public static List<GateResult> evaluate(Leaderboard leaderboard, GateSpec spec) {
        List<GateResult> results = new ArrayList<>();
        List<GateResult> problems = new ArrayList<>();
        List<Resolved> resolved = new ArrayList<>();
        for (GateRule rule : spec.rules()) {
            if (rule.kind().isRedTeam()) {
                continue;
            }
            List<Pattern> patterns = resolve(rule, leaderboard);
            if (patterns.isEmpty()) {
                problems.add(new GateResult(rule, GateResult.Status.UNMATCHED, null, null, null, Double.NaN,
                        "gate not applied: " + rule.key() + " matches no eval, model or scorer of this run"));
            }
            else if (patterns.size() > 1) {
                problems.add(new GateResult(rule, GateResult.Status.FAILED, null, null, null, Double.NaN,
                        "gate failed: " + rule.key() + " is ambiguous (" + describe(patterns)
                                + "); spell it out as <eval>.<model>.<scorer>, with * for any eval or model"));
            }
            else if ((rule.kind() == GateRule.Kind.MAX_COST_USD || rule.kind().isLatency())
                    && patterns.get(0).scorer != null) {
                problems.add(new GateResult(rule, GateResult.Status.FAILED, null, null, null, Double.NaN,
                        "gate failed: " + rule.key() + " names a scorer, but " + (rule.kind().isLatency()
                                ? "latency" : "cost") + " belongs to model calls; use <eval> or <eval>.<model>"));
            }
            else {
                resolved.add(new Resolved(rule, patterns.get(0)));
            }
        }
        for (GateRule.Kind kind : GateRule.Kind.values()) {
            if (kind == GateRule.Kind.MAX_COST_USD) {
                costGates(leaderboard, resolved, results);
            }
            else if (kind.isLatency()) {
                latencyGates(kind, leaderboard, resolved, results);
            }
            else if (kind.isRedTeam()) {
                redTeamGates(kind, leaderboard, spec, results, problems);
            }
            else {
                scoreGates(kind, leaderboard, resolved, results);
            }
        }
        for (Resolved r : resolved) {
            if (!matchesAny(r.pattern, leaderboard)) {
                problems.add(new GateResult(r.rule, GateResult.Status.UNMATCHED, null, null, null, Double.NaN,
                        "gate not applied: " + r.rule.key() + " matches no eval, model or scorer of this run"));
            }
        }
        results.addAll(problems);
        return results;
    }

    /** Whether any result should fail the build. */
    public static boolean anyFailed(List<GateResult> results) {
        return results.stream().anyMatch(GateResult::failed);
    }

    /**
     * Only the results of one rule of a spec, judged as {@link #evaluate(Leaderboard, GateSpec)} judges them: a
     * target goes to the most specific rule of the spec, and the spec's {@code max-errors} rules are the allowances.
     * Empty when every target the rule covers belongs to a more specific rule.
     */
    public static List<GateResult> evaluate(Leaderboard leaderboard, GateSpec spec, GateRule rule) {
        List<GateResult> mine = new ArrayList<>();
        for (GateResult result : evaluate(leaderboard, spec)) {
            if (result.rule().equals(rule)) {
                mine.add(result);
            }
        }
        return mine;
    }

    private static void scoreGates(GateRule.Kind kind, Leaderboard leaderboard, List<Resolved> rules,
            List<GateResult> results) {
        for (EvalLeaderboard eval : leaderboard.evals()) {
            for (ModelEntry model : eval.models()) {
                Resolved rule = pick(kind, rules, eval.eval(), model.model(), null);
                if (rule != null) {
                    double value = kind == GateRule.Kind.MIN_ACCURACY ? model.accuracy().value()
                            : kind == GateRule.Kind.MIN_PASS_RATE ? model.passRate().value() : model.errors();
                    results.add(check(rule.rule, eval.eval(), model.model(), null, value, model.errors(),
                            allowance(kind, rules, eval.eval(), model.model(), null)));
                }
                for (ScorerEntry scorer : model.scorers()) {
                    Resolved scorerRule = pick(kind, rules, eval.eval(), model.model(), scorer.scorer());
                    if (scorerRule != null) {
                        double value = kind == GateRule.Kind.MIN_ACCURACY ? scorer.accuracy().value()
                                : kind == GateRule.Kind.MIN_PASS_RATE ? scorer.passRate().value() : scorer.errors();
                        results.add(check(scorerRule.rule, eval.eval(), model.model(), scorer.scorer(), value,
                                scorer.errors(), allowance(kind, rules, eval.eval(), model.model(), scorer.scorer())));
                    }
                }
            }
        }
    }

    /**
     * The {@code max-errors} rule that says how many errored results an accuracy or pass-rate gate allows on a target
     * (for a scorer, its own rule, else its model's), or {@code null} for none allowed; always {@code null} for other
     * kinds, which do not look at errors.
     */
    private static GateRule allowance(GateRule.Kind kind, List<Resolved> rules, String eval, String model,
            String scorer) {
        if (!kind.isMinimum()) {
            return null;
        }
        Resolved allowed = scorer == null ? null : pick(GateRule.Kind.MAX_ERRORS, rules, eval, model, scorer);
        if (allowed == null) {
            allowed = pick(GateRule.Kind.MAX_ERRORS, rules, eval, model, null);
        }
        return allowed == null ? null : allowed.rule;
    }

    private static void costGates(Leaderboard leaderboard, List<Resolved> rules, List<GateResult> results) {
        for (Resolved r : rules) {
            if (r.rule.kind() == GateRule.Kind.MAX_COST_USD && r.pattern.eval == null) {
                results.add(check(r.rule, null, null, null, leaderboard.totalCostUsd()));
            }
        }
        for (EvalLeaderboard eval : leaderboard.evals()) {
            Resolved evalRule = pickCost(rules, eval.eval(), null);
            if (evalRule != null) {
                double total = eval.models().stream().mapToDouble(ModelEntry::costUsd).sum();
                results.add(check(evalRule.rule, eval.eval(), null, null, total));
            }
            for (ModelEntry model : eval.models()) {
                Resolved modelRule = pickCost(rules, eval.eval(), model.model());
                if (modelRule != null) {
                    results.add(check(modelRule.rule, eval.eval(), model.model(), null, model.costUsd()));
                }
            }
        }
    }

    /**
     * Latency gates, per eval and model: the percentile of the model's live calls, queue time left out (the time a
     * call waited for its turn under the key's rate limits says nothing of the model). A model whose calls were all
     * replayed, or that made none, has no latency: the gate is not applied to it, rather than passed or failed.
     */
    private static void latencyGates(GateRule.Kind kind, Leaderboard leaderboard, List<Resolved> rules,
            List<GateResult> results) {
        for (EvalLeaderboard eval : leaderboard.evals()) {
            for (ModelEntry model : eval.models()) {
                Resolved rule = pick(kind, rules, eval.eval(), model.model(), null);
                if (rule == null) {
                    continue;
                }
                double value = kind == GateRule.Kind.MAX_LATENCY_P50_MS ? model.latencyP50Ms() : model.latencyP95Ms();
                if (Double.isNaN(value)) {
                    results.add(new GateResult(rule.rule, GateResult.Status.UNMATCHED, eval.eval(), model.model(),
                            null, Double.NaN, "gate not applied: " + eval.eval() + " / " + model.model() + " has no "
                                    + "live call to measure (" + rule.rule.key() + "): every call was replayed, or "
                                    + "none was made"));
                }
                else {
                    results.add(check(rule.rule, eval.eval(), model.model(), null, value));
                }
            }
        }
    }

    /**
     * A red team's gates, per red-team eval and model: {@code max-attack-success} per attack category, whose selector
     * may name the category where other gates name a scorer ({@code <category>}, {@code <eval>.<category>},
     * {@code <eval>.<model>.<category>}), and {@code max-over-refusal} on the benign requests. For each target the
     * most specific rule wins (ties to the lowest ceiling); it fails when the rate exceeds the ceiling, and names the
     * rate's 95% interval. A rule that covers no red-team eval, model or category of the run is not applied.
     */
    private static void redTeamGates(GateRule.Kind kind, Leaderboard leaderboard, GateSpec spec,
            List<GateResult> results, List<GateResult> problems) {
        List<Resolved> rules = new ArrayList<>();
        for (GateRule rule : spec.rules()) {
            if (rule.kind() != kind) {
                continue;
            }
            List<Pattern> readings = resolveRedTeam(rule, leaderboard);
            if (readings.isEmpty()) {
                problems.add(new GateResult(rule, GateResult.Status.UNMATCHED, null, null, null, Double.NaN,
                        "gate not applied: " + rule.key() + " matches no red-team eval" + (kind
                                == GateRule.Kind.MAX_ATTACK_SUCCESS ? ", model or attack category (" + String.join(
                                        ", ", attackCategories()) + ")" : " or model") + " of this run"));
            }
            else if (readings.size() > 1) {
                problems.add(new GateResult(rule, GateResult.Status.FAILED, null, null, null, Double.NaN,
                        "gate failed: " + rule.key() + " is ambiguous ("
                                + describe(readings).replace(", scorer ", ", category ")
                                + "); spell it out as <eval>.<model>" + (kind == GateRule.Kind.MAX_ATTACK_SUCCESS
                                        ? ".<category>" : "") + ", with * for any eval or model"));
            }
            else {
                rules.add(new Resolved(rule, readings.get(0)));
            }
        }
        Set<GateRule> covering = new HashSet<>();
        for (EvalLeaderboard eval : leaderboard.evals()) {
            Optional<AttackTally.AttackRates> rates = leaderboard.arenaSections().attacks(eval.eval());
            if (rates.isEmpty()) {
                continue;
            }
            boolean attacks = kind == GateRule.Kind.MAX_ATTACK_SUCCESS;
            for (AttackTally.Rate row : attacks ? rates.get().attacks() : rates.get().overRefusal()) {
                String category = attacks ? row.group() : null;
                Resolved best = null;
                for (Resolved r : rules) {
                    Pattern p = r.pattern;
                    if (!p.eval.equals(ANY) && !p.eval.equals(eval.eval())
                            || !p.model.equals(ANY) && !p.model.equals(row.model())
                            || p.scorer != null && !p.scorer.equals(category)) {
                        continue;
                    }
                    covering.add(r.rule);
                    if (best == null || p.specificity() > best.pattern.specificity()
                            || (p.specificity() == best.pattern.specificity()
                                    && r.rule.threshold() < best.rule.threshold())) {
                        best = r;
                    }
                }
                if (best == null) {
                    continue;
                }
                GateRule rule = best.rule;
                Estimate rate = row.rate();
                boolean holds = rate.value() <= rule.threshold();
                results.add(new GateResult(rule, holds ? GateResult.Status.PASSED : GateResult.Status.FAILED,
                        eval.eval(), row.model(), null, rate.value(), (holds ? "gate passed: " : "gate failed: ")
                                + eval.eval() + " / " + row.model() + " " + kind.label()
                                + (attacks ? " in " + row.group() : "") + " " + format(rate.value()) + " ["
                                + format(rate.low()) + ", " + format(rate.high()) + "] (" + row.successes() + " of "
                                + rate.n() + ") " + (holds ? "<=" : ">") + " " + format(rule.threshold()) + " ("
                                + rule.key().substring(Constants.GATES_PREFIX.length()) + ")"));
            }
        }
        for (Resolved r : rules) {
            if (!covering.contains(r.rule)) {
                problems.add(new GateResult(r.rule, GateResult.Status.UNMATCHED, null, null, null, Double.NaN,
                        "gate not applied: " + r.rule.key() + " matches no " + (kind
                                == GateRule.Kind.MAX_ATTACK_SUCCESS ? "attack category" : "benign request")
                                + " of a red-team eval of this run"));
            }
        }
    }

    /** The attack categories, which a {@code max-attack-success} selector may end with. */
    private static List<String> attackCategories() {
        return Probe.CATEGORIES.stream().filter(c -> !c.equals(AttackTally.OVER_REFUSAL)).toList();
    }

    /**
     * Every reading of a red-team gate's selector against the run's red-team evals and their models: nothing,
     * {@code <eval>} or {@code <eval>.<model>}, and for {@code max-attack-success} a category alone or after them.
     */
    private static List<Pattern> resolveRedTeam(GateRule rule, Leaderboard leaderboard) {
        String selector = rule.selector();
        List<Pattern> readings = new ArrayList<>();
        if (selector.isEmpty()) {
            readings.add(new Pattern(ANY, ANY, null));
            return readings;
        }
        List<String> categories = rule.kind() == GateRule.Kind.MAX_ATTACK_SUCCESS ? attackCategories() : List.of();
        if (categories.contains(selector)) {
            readings.add(new Pattern(ANY, ANY, selector));
        }
        Set<String> evals = new TreeSet<>();
        leaderboard.evals().forEach(e -> {
            if (leaderboard.arenaSections().attacks(e.eval()).isPresent()) {
                evals.add(e.eval());
            }
        });
        evals.add(ANY);
        for (String eval : evals) {
            if (selector.equals(eval)) {
                readings.add(new Pattern(eval, ANY, null));
                continue;
            }
            if (!selector.startsWith(eval + ".")) {
                continue;
            }
            String rest = selector.substring(eval.length() + 1);
            Set<String> models = new TreeSet<>();
            for (EvalLeaderboard board : leaderboard.evals()) {
                if (eval.equals(ANY) ? evals.contains(board.eval()) : board.eval().equals(eval)) {
                    board.models().forEach(m -> models.add(m.model()));
                }
            }
            models.add(ANY);
            for (String model : models) {
                if (rest.equals(model)) {
                    readings.add(new Pattern(eval, model, null));
                }
                else if (rest.startsWith(model + ".") && categories.contains(rest.substring(model.length() + 1))) {
                    readings.add(new Pattern(eval, model, rest.substring(model.length() + 1)));
                }
            }
            if (categories.contains(rest)) {
                readings.add(new Pattern(eval, ANY, rest));
            }
        }
        return readings;
    }

    /** The most specific score rule of a kind for a target; ties go to the strictest threshold. */
    private static Resolved pick(GateRule.Kind kind, List<Resolved> rules, String eval, String model, String scorer) {
        Resolved best = null;
        for (Resolved r : rules) {
            Pattern p = r.pattern;
            if (r.rule.kind() != kind || (p.scorer == null) != (scorer == null) || !p.matches(eval, model, scorer)) {
                continue;
            }
            if (best == null || p.specificity() > best.pattern.specificity()
                    || (p.specificity() == best.pattern.specificity() && stricter(kind, r.rule, best.rule))) {
                best = r;
            }
        }
        return best;
    }

    /** Whether a rule's bound is stricter than another's: a higher floor, or a lower ceiling. */
    private static boolean stricter(GateRule.Kind kind, GateRule rule, GateRule than) {
        return kind.isMinimum() ? rule.threshold() > than.threshold() : rule.threshold() < than.threshold();
    }

    /** The most specific cost rule for an eval (model null) or a model of an eval; ties go to the lowest budget. */
    private static Resolved pickCost(List<Resolved> rules, String eval, String model) {
        Resolved best = null;
        for (Resolved r : rules) {
            Pattern p = r.pattern;
            if (r.rule.kind() != GateRule.Kind.MAX_COST_USD || p.eval == null || (p.model == null) != (model == null)
                    || !p.matches(eval, model, null)) {
                continue;
            }
            if (best == null || p.specificity() > best.pattern.specificity()
                    || (p.specificity() == best.pattern.specificity() && r.rule.threshold() < best.rule.threshold())) {
                best = r;
            }
        }
        return best;
    }

    /**
     * Whether a selector (already read against the run's names) covers any target; it may still lose every target
     * to a more specific rule, which is not a mistake.
     */
    private static boolean matchesAny(Pattern p, Leaderboard leaderboard) {
        if (p.eval == null) {
            return true;
        }
        for (EvalLeaderboard eval : leaderboard.evals()) {
            if (p.model == null && p.matches(eval.eval(), null, null)) {
                return true;
            }
            for (ModelEntry model : eval.models()) {
                if (p.scorer == null && p.matches(eval.eval(), model.model(), null)) {
                    return true;
                }
                for (ScorerEntry scorer : model.scorers()) {
                    if (p.scorer != null && p.matches(eval.eval(), model.model(), scorer.scorer())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static GateResult check(GateRule rule, String eval, String model, String scorer, double value) {
        return check(rule, eval, model, scorer, value, 0, null);
    }

    /**
     * @param errors the target's errored results, which an accuracy or pass-rate gate does not see in its value
     * @param allowance the {@code max-errors} rule that allows some, or {@code null}: none allowed
     */
    private static GateResult check(GateRule rule, String eval, String model, String scorer, double value,
            int errors, GateRule allowance) {
        GateRule.Kind kind = rule.kind();
        boolean measured = !Double.isNaN(value);
        boolean bound = measured && (kind.isMinimum() ? value >= rule.threshold() : value <= rule.threshold());
        int allowed = allowance == null ? 0 : (int) allowance.threshold();
        boolean tooManyErrors = kind.isMinimum() && errors > allowed;
        boolean holds = bound && !tooManyErrors;
        StringBuilder target = new StringBuilder();
        if (eval == null) {
            target.append("whole run");
        }
        else {
            target.append(eval);
            if (model != null) {
                target.append(" / ").append(model);
            }
            if (scorer != null) {
                target.append(" / ").append(scorer);
            }
        }
        String shown = show(kind, value);
        String threshold = show(kind, rule.threshold());
        String relation = bound ? (kind.isMinimum() ? ">=" : "<=") : (kind.isMinimum() ? "<" : ">");
        String message = (holds ? "gate passed: " : "gate failed: ") + target + " " + kind.label() + " " + shown + " "
                + relation + " " + threshold + " (" + kind.key() + ")" + (measured ? "" : ": no scored results");
        if (tooManyErrors) {
            message += (bound ? ", but " : "; and ") + errors + (errors == 1 ? " result" : " results") + " errored"
                    + (allowance == null ? " and none are allowed (" + Constants.GATES_PREFIX
                            + GateRule.Kind.MAX_ERRORS.key() + ")"
                            : ", more than the " + allowed + " allowed by " + allowance.key())
                    + "; errored results are not in " + kind.label();
        }
        else if (kind.isMinimum() && errors > 0) {
            message += "; " + errors + " errored (" + allowed + " allowed by " + allowance.key() + ")";
        }
        return new GateResult(rule, holds ? GateResult.Status.PASSED : GateResult.Status.FAILED, eval, model, scorer,
                value, message);
    }

    private static String show(GateRule.Kind kind, double value) {
        if (kind == GateRule.Kind.MAX_COST_USD) {
            return usd(value);
        }
        if (kind == GateRule.Kind.MAX_ERRORS) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (kind.isLatency()) {
            return String.format(Locale.ROOT, "%.0f ms", value);
        }
        return format(value);
    }

    private static String format(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String usd(double value) {
        return String.format(Locale.ROOT, "$%.4f", value);
    }

    /**
     * Every reading of a selector against the run's names. Empty selector: every eval and model (for cost: the run).
     * {@code <eval>.<x>} reads x as a model or a scorer of that eval; a lone {@code *} there means any model.
     */
    static List<Pattern> resolve(GateRule rule, Leaderboard leaderboard) {
        String selector = rule.selector();
        List<Pattern> readings = new ArrayList<>();
        if (selector.isEmpty()) {
            readings.add(rule.kind() == GateRule.Kind.MAX_COST_USD ? new Pattern(null, null, null)
                    : new Pattern(ANY, ANY, null));
            return readings;
        }
        Set<String> evals = new TreeSet<>();
        leaderboard.evals().forEach(e -> evals.add(e.eval()));
        evals.add(ANY);
        for (String eval : evals) {
            if (selector.equals(eval)) {
                readings.add(new Pattern(eval, rule.kind() == GateRule.Kind.MAX_COST_USD ? null : ANY, null));
                continue;
            }
            if (!selector.startsWith(eval + ".")) {
                continue;
            }
            String rest = selector.substring(eval.length() + 1);
            Set<String> models = new TreeSet<>();
            Set<String> scorers = new TreeSet<>();
            for (EvalLeaderboard board : leaderboard.evals()) {
                if (eval.equals(ANY) || board.eval().equals(eval)) {
                    board.models().forEach(m -> {
                        models.add(m.model());
                        m.scorers().forEach(s -> scorers.add(s.scorer()));
                    });
                }
            }
            models.add(ANY);
            for (String model : models) {
                if (rest.equals(model)) {
                    readings.add(new Pattern(eval, model, null));
                }
                else if (rest.startsWith(model + ".") && scorers.contains(rest.substring(model.length() + 1))) {
                    readings.add(new Pattern(eval, model, rest.substring(model.length() + 1)));
                }
            }
            if (scorers.contains(rest)) {
                readings.add(new Pattern(eval, ANY, rest));
            }
        }
        return readings;
    }

    private static String describe(List<Pattern> patterns) {
        List<String> texts = new ArrayList<>();
        patterns.forEach(p -> texts.add("eval " + p.eval + ", model " + p.model
                + (p.scorer == null ? "" : ", scorer " + p.scorer)));
        return String.join("; or ", texts);
    }

    /** A selector read against the run: names or {@code *}; eval null = the whole run; scorer null = model level. */
    static final class Pattern {
        final String eval;
        final String model;
        final String scorer;

        Pattern(String eval, String model, String scorer) {
            this.eval = eval;
            this.model = model;
            this.scorer = scorer;
        }

        boolean matches(String e, String m, String s) {
            return eval != null && (eval.equals(ANY) || eval.equals(e))
                    && (model == null ? m == null : model.equals(ANY) || model.equals(m))
                    && (scorer == null ? s == null : scorer.equals(s));
        }

        int specificity() {
            int specificity = 0;
            specificity += eval != null && !eval.equals(ANY) ? 1 : 0;
            specificity += model != null && !model.equals(ANY) ? 1 : 0;
            specificity += scorer != null ? 1 : 0;
            return specificity;
        }
    }

    private static final class Resolved {
        final GateRule rule;
        final Pattern pattern;

        Resolved(GateRule rule, Pattern pattern) {
            this.rule = rule;
            this.pattern = pattern;
        }
    }
}
