package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.reporting.statistics.PairedTest;

/** Ranks one eval's models by composite, marks the Pareto frontier and tests each model against the best. */
final class Ranking {

    private Ranking() {
    }

    static EvalLeaderboard rank(String eval, List<ModelEntry> drafts, LeaderboardSettings settings,
            List<String> warnings, Compared compared) {
        Map<String, Double> used = Composite.usable(settings.weights(), drafts, warnings);
        if (used.isEmpty()) {
            warnings.add("no weighted dimension is available; models are ranked by accuracy");
        }
        Map<String, double[]> normalized = Composite.normalizeAll(used, drafts, settings, warnings);
        List<ModelEntry> scored = new ArrayList<>();
        for (int i = 0; i < drafts.size(); i++) {
            Map<String, Double> norms = new LinkedHashMap<>();
            for (Map.Entry<String, double[]> dimension : normalized.entrySet()) {
                norms.put(dimension.getKey(), dimension.getValue()[i]);
            }
            scored.add(drafts.get(i).ranked(0, Composite.composite(used, normalized, i), norms, false, null));
        }
        scored.sort(Comparator.comparingDouble((ModelEntry m) -> nanLast(m.composite()))
                .thenComparingDouble(m -> nanLast(m.accuracy().value()))
                .thenComparing(ModelEntry::model));

        List<Pareto.Point> frontier = Pareto.frontier(scored.stream()
                .map(m -> new Pareto.Point(m.model(), m.accuracy().value(), m.costPerCase().value()))
                .collect(Collectors.toList()));
        Set<String> onFrontier = frontier.stream().map(Pareto.Point::name).collect(Collectors.toSet());

        List<ModelEntry> ranked = new ArrayList<>();
        ModelEntry best = scored.isEmpty() ? null : scored.get(0);
        for (int i = 0; i < scored.size(); i++) {
            ModelEntry entry = scored.get(i);
            PairedTest test = null;
            if (i > 0) {
                test = PairedTest.compare(entry.caseScores(), best.caseScores(), settings.seed(),
                        "paired|" + eval + "|" + entry.model() + "|" + best.model(), settings.resamples());
                warnIfInseparable(entry, best, test, settings, warnings);
            }
            ranked.add(entry.ranked(i + 1, entry.composite(), entry.normalized(), onFrontier.contains(entry.model()),
                    test));
        }
        for (ModelEntry entry : ranked) {
            if (entry.cases() > 0 && entry.cases() < settings.minCases()) {
                warnings.add(entry.model() + " has only " + entry.cases() + " scored cases (fewer than "
                        + settings.minCases() + "); its 95% interval is wide: " + interval(entry.accuracy()));
            }
            warnings.addAll(ErrorSummary.warnings(entry));
        }
        if (!ranked.isEmpty() && ranked.stream().allMatch(entry -> entry.cases() == 0)) {
            // an eval that could not run (a labels file, a dataset found nowhere) or whose every call failed: the
            // warnings about weights, shared cases and accuracy would each blame something that is not wrong
            int errors = ranked.stream().mapToInt(ModelEntry::errors).sum();
            warnings.clear();
            warnings.add("nothing of " + eval + " was scored: " + (errors > 0 ? errors + " result"
                    + (errors == 1 ? "" : "s") + " errored (each error names its cause: its test, results.jsonl)"
                    : "no result had a score") + ", so there is nothing to rank or compare");
        }
        return new EvalLeaderboard(eval, used, ranked,
                frontier.stream().map(Pareto.Point::name).collect(Collectors.toList()), warnings, compared);
    }

    /**
     * "Too small to separate": the paired test against the best is not significant at 0.05, or there are no shared
     * cases to test on.
     */
    private static void warnIfInseparable(ModelEntry entry, ModelEntry best, PairedTest test,
            LeaderboardSettings settings, List<String> warnings) {
        if (test.n() == 0) {
            warnings.add(entry.model() + " and " + best.model() + " share no case ids; they cannot be compared");
            return;
        }
        if (test.significant()) {
            return;
        }
        String few = test.n() < settings.minCases() ? ", fewer than " + settings.minCases() : "";
        warnings.add(String.format(Locale.ROOT,
                "sample too small to separate %s from %s: %d shared cases%s, accuracy difference %+.3f, p = %.3f (%s);"
                        + " treat their order as a tie or add cases",
                entry.model(), best.model(), test.n(), few, test.meanDifference(), test.p(), test.test()));
    }

    private static String interval(Estimate estimate) {
        return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", estimate.value(), estimate.low(), estimate.high());
    }

    /** Descending order with NaN last. */
    private static double nanLast(double value) {
        return Double.isNaN(value) ? Double.POSITIVE_INFINITY : -value;
    }
}
