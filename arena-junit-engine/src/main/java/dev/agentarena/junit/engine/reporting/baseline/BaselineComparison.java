package dev.agentarena.junit.engine.reporting.baseline;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.reporting.leaderboard.EvalLeaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.ModelEntry;
import dev.agentarena.junit.engine.reporting.leaderboard.ScorerEntry;
import dev.agentarena.junit.engine.reporting.statistics.CaseScores;
import dev.agentarena.junit.engine.reporting.statistics.PairedTest;

/**
 * A run compared with a baseline, entry by entry, matched on eval name, model and scorer name.
 *
 * <p>An entry regresses when its accuracy fell by more than the tolerance (absolute), or when the paired test on the
 * case ids both runs share finds it significantly worse at 0.05; it improves by the mirror rule. Results scored by a
 * different scorer version are not compared at all: the numbers would measure the scorer change, not the model.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class BaselineComparison {

    /** How to write a new baseline, quoted in refusals. */
    static final String REBASELINE = "re-baseline with -D" + Constants.BASELINE_UPDATE + "=true";

    private final List<BaselineResult> results;

    private BaselineComparison(List<BaselineResult> results) {
        this.results = List.copyOf(results);
    }

    /** The per-entry results: this run's entries in leaderboard order, then entries only the baseline has. */
    public List<BaselineResult> results() {
        return results;
    }

    /** Whether any entry regressed or was refused. */
    public boolean failed() {
        return results.stream().anyMatch(BaselineResult::failed);
    }

    /** Counts by status and every failure, one per line. */
    public String summary() {
        Map<BaselineResult.Status, Integer> counts = new EnumMap<>(BaselineResult.Status.class);
        results.forEach(r -> counts.merge(r.status(), 1, Integer::sum));
        StringBuilder text = new StringBuilder("baseline: ");
        List<String> parts = new ArrayList<>();
        counts.forEach((status, count) -> parts.add(count + " " + status.name().toLowerCase(Locale.ROOT)));
        text.append(parts.isEmpty() ? "nothing to compare" : String.join(", ", parts)).append('\n');
        results.stream().filter(BaselineResult::failed).forEach(r -> text.append("  ").append(r.message()).append('\n'));
        return text.toString();
    }

    /**
     * Compares a run with a baseline.
     *
     * @param tolerance the largest absolute accuracy drop that is not a regression by itself
     */
    public static BaselineComparison compare(Baseline baseline, Leaderboard run, double tolerance) {
        if (!(tolerance >= 0)) {
            throw new IllegalArgumentException("tolerance must be >= 0, but was " + tolerance);
        }
        Map<String, BaselineEntry> byKey = new HashMap<>();
        baseline.entries().forEach(e -> byKey.put(e.key(), e));
        Set<String> seen = new HashSet<>();
        String runReducer = run.settings().reducer().toString();
        List<BaselineResult> results = new ArrayList<>();
        for (EvalLeaderboard eval : run.evals()) {
            for (ModelEntry model : eval.models()) {
                for (ScorerEntry scorer : model.scorers()) {
                    String key = eval.eval() + " / " + model.model() + " / " + scorer.scorer();
                    seen.add(key);
                    BaselineEntry base = byKey.get(key);
                    double accuracy = scorer.accuracy().value();
                    if (base == null) {
                        results.add(new BaselineResult(eval.eval(), model.model(), scorer.scorer(),
                                BaselineResult.Status.NEW, Double.NaN, accuracy, Double.NaN, null,
                                "new: " + key + " has no baseline entry; not compared"));
                    }
                    else if (!Objects.equals(blankToNull(base.scorerVersion()), blankToNull(scorer.scorerVersion()))) {
                        results.add(refused(base, accuracy, "refused: " + key + ": scorer " + scorer.scorer()
                                + " changed version " + version(base.scorerVersion()) + " → "
                                + version(scorer.scorerVersion()) + "; scores from different scorer versions are not "
                                + "comparable; " + REBASELINE + " once the new scorer is reviewed"));
                    }
                    else if (!baseline.reducer().equals(runReducer)) {
                        results.add(refused(base, accuracy, "refused: " + key + ": the baseline reduced repeats by "
                                + baseline.reducer() + ", this run by " + runReducer + "; " + REBASELINE
                                + " or set the same reducer"));
                    }
                    else {
                        results.add(judge(base, scorer, key, tolerance, run));
                    }
                }
            }
        }
        for (BaselineEntry base : baseline.entries()) {
            if (!seen.contains(base.key())) {
                results.add(new BaselineResult(base.eval(), base.model(), base.scorer(),
                        BaselineResult.Status.MISSING, base.accuracy(), Double.NaN, Double.NaN, null,
                        "missing: " + base.key() + " is in the baseline but not in this run"));
            }
        }
        return new BaselineComparison(results);
    }

    private static BaselineResult judge(BaselineEntry base, ScorerEntry scorer, String key, double tolerance,
            Leaderboard run) {
        double accuracy = scorer.accuracy().value();
        double delta = accuracy - base.accuracy();
        PairedTest test = PairedTest.compare(scorer.cases(), base.caseScores(), run.settings().seed(),
                "baseline|" + key, run.settings().resamples());
        boolean worse = delta < -tolerance || (test.significant() && test.meanDifference() < 0);
        boolean better = !worse && (delta > tolerance || (test.significant() && test.meanDifference() > 0));
        BaselineResult.Status status = worse ? BaselineResult.Status.REGRESSED
                : better ? BaselineResult.Status.IMPROVED : BaselineResult.Status.UNCHANGED;
        String paired = test.n() == 0 ? "no shared case ids for a paired test"
                : String.format(Locale.ROOT, "paired on %d shared cases: %+.3f, p = %.3f (%s)%s", test.n(),
                        test.meanDifference(), test.p(), test.test(), test.significant() ? ", significant" : "");
        String message = String.format(Locale.ROOT, "%s: %s accuracy %.3f → %.3f (%+.3f, tolerance %.3f); %s",
                status.name().toLowerCase(Locale.ROOT), key, base.accuracy(), accuracy, delta, tolerance, paired);
        if (status == BaselineResult.Status.REGRESSED) {
            message += regressedCases(base, scorer.cases(), tolerance);
        }
        return new BaselineResult(base.eval(), base.model(), base.scorer(), status, base.accuracy(), accuracy, delta,
                test, message);
    }

    /** How many cases regressed, by name. */
    static final int NAMED_CASES = 10;

    /**
     * The cases of a regressed entry that got worse, named (the first {@value #NAMED_CASES} in case id order): a
     * verdict that went from passed to failed, or a score that fell by more than the tolerance. Empty when no single
     * case did (the accuracy fell by many small steps).
     */
    static String regressedCases(BaselineEntry base, CaseScores now, double tolerance) {
        List<String> worse = new ArrayList<>();
        for (int i = 0; i < now.size(); i++) {
            // an id may be made when asked for (the leaderboard keeps them as bytes): asked once
            String id = now.id(i);
            Double before = base.scores().get(id);
            if (before == null) {
                continue;
            }
            Boolean passedBefore = base.passed().get(id);
            boolean wasPassed = passedBefore == null ? before >= 1.0 : passedBefore;
            if ((wasPassed && !now.passed(i)) || now.score(i) < before - tolerance - 1e-12) {
                worse.add(id);
            }
        }
        if (worse.isEmpty()) {
            return "";
        }
        worse.sort(null);
        return "; " + worse.size() + (worse.size() == 1 ? " case" : " cases") + " regressed: "
                + String.join(", ", worse.subList(0, Math.min(NAMED_CASES, worse.size())))
                + (worse.size() > NAMED_CASES ? " and " + (worse.size() - NAMED_CASES) + " more" : "");
    }

    private static BaselineResult refused(BaselineEntry base, double accuracy, String message) {
        return new BaselineResult(base.eval(), base.model(), base.scorer(), BaselineResult.Status.REFUSED,
                base.accuracy(), accuracy, accuracy - base.accuracy(), null, message);
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }

    private static String version(String text) {
        return blankToNull(text) == null ? "(none)" : text;
    }
}
