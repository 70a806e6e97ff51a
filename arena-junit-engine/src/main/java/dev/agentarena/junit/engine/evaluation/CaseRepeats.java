package dev.agentarena.junit.engine.evaluation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * The flakiness of one case over its repeats, shown on the case node: how many repeats passed, and per scorer k of n
 * passed with the spread of its scores. A repeat passes when every scorer that counted it passed.
 */
final class CaseRepeats {

    private final List<CaseOutcome> outcomes;

    CaseRepeats(List<CaseOutcome> outcomes) {
        this.outcomes = outcomes;
    }

    /** {@code 3/5 passed, flaky}, or {@code 0/5 counted} when no repeat was scored. */
    String summary() {
        int counted = 0;
        int passed = 0;
        for (CaseOutcome outcome : outcomes) {
            Boolean verdict = verdict(outcome);
            if (verdict != null) {
                counted++;
                passed += verdict ? 1 : 0;
            }
        }
        if (counted == 0) {
            return "0/" + outcomes.size() + " counted";
        }
        boolean flaky = passed > 0 && passed < counted || scorers().values().stream().anyMatch(Spread::varies);
        return passed + "/" + counted + " passed" + (flaky ? ", flaky" : "");
    }

    /** Report entries: {@code repeats}, {@code passed}, and one {@code flaky.<scorer>} line per scorer. */
    Map<String, String> reportEntries() {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("repeats", String.valueOf(outcomes.size()));
        entries.put("repeats_passed", summary());
        scorers().forEach((scorer, spread) -> entries.put("flakiness." + scorer, spread.describe()));
        return entries;
    }

    private Map<String, Spread> scorers() {
        Map<String, Spread> byScorer = new LinkedHashMap<>();
        for (CaseOutcome outcome : outcomes) {
            for (ScorerResult result : outcome.results()) {
                ResultRecord score = result.record();
                Spread spread = byScorer.computeIfAbsent(score.scorer(), name -> new Spread());
                spread.runs++;
                if (isCounted(score)) {
                    spread.scores.add(score.score());
                    spread.passed += score.status() == ResultStatus.PASSED ? 1 : 0;
                }
            }
        }
        return byScorer;
    }

    private static Boolean verdict(CaseOutcome outcome) {
        Boolean all = null;
        for (ScorerResult result : outcome.results()) {
            ResultRecord score = result.record();
            if (isCounted(score)) {
                all = (all == null || all) && score.status() == ResultStatus.PASSED;
            }
        }
        return all;
    }

    private static boolean isCounted(ResultRecord score) {
        return score.score() != null && score.status().counts();
    }

    /** One scorer's repeats of one case. */
    private static final class Spread {
        int runs;
        int passed;
        final List<Double> scores = new ArrayList<>();

        boolean varies() {
            return (passed > 0 && passed < scores.size()) || max() > min();
        }

        double min() {
            return scores.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        }

        double max() {
            return scores.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }

        double stddev() {
            double mean = scores.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
            double variance = scores.stream().mapToDouble(s -> (s - mean) * (s - mean)).average().orElse(Double.NaN);
            return Math.sqrt(variance);
        }

        String describe() {
            if (scores.isEmpty()) {
                return "0/" + runs + " counted";
            }
            return String.format(Locale.ROOT, "%d/%d passed, min %.2f, max %.2f, spread %.2f, sd %.3f", passed,
                    scores.size(), min(), max(), max() - min(), stddev()) + (runs > scores.size()
                            ? " (" + (runs - scores.size()) + " not counted)" : "");
        }
    }
}
