package dev.agentarena.junit.engine.scoring;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.Verdict;
import dev.agentarena.junit.model.Turn;

/**
 * Grades a conversation case turn by turn and folds the turns into the one score its test reports: the scorer is
 * called once per turn (the turn's answer as the output, its user message as the input), and each score name gets
 * the mean of the turns that were graded (passed or failed), failed if any turn failed. A turn the scorer abstained
 * on, or found not applicable, is named in the reason but counts for neither; a score no turn graded stays as the
 * turns gave it (not applicable, or unscored with the mean of their scores). Every turn's score is in the reason and
 * in the result's {@code turn_scores} detail; the turns' metrics are averaged.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class TurnScores {

    /** The scorer option that turns per-turn grading on or off for any scorer. */
    public static final String OPTION = "per_turn";

    /** The detail that lists every turn's score. */
    public static final String DETAIL = "turn_scores";

    private TurnScores() {
    }

    /** One score name's result per turn, in turn order ({@code null} where a turn produced none). */
    private record Graded(List<ScoreResult> byTurn) {
    }

    /**
     * Grades each turn of the conversation and folds them, score name by score name.
     *
     * @param turns every turn of the case
     * @param forTurn the scorer's context for one turn: the turn's user message as the input, its answer as the output
     */
    public static List<NamedScore> score(ScorerDefinition scorer, List<Turn> turns,
            Function<Turn, ScoringContext> forTurn) throws Throwable {
        Map<String, Graded> byName = new LinkedHashMap<>();
        for (Turn turn : turns) {
            for (NamedScore score : scorer.score(turn.answer(), forTurn.apply(turn))) {
                Graded graded = byName.computeIfAbsent(score.name(), name -> new Graded(new ArrayList<>()));
                while (graded.byTurn().size() < turn.index()) {
                    graded.byTurn().add(null);
                }
                graded.byTurn().add(score.result());
            }
        }
        List<NamedScore> folded = new ArrayList<>();
        byName.forEach((name, graded) -> {
            while (graded.byTurn().size() < turns.size()) {
                graded.byTurn().add(null);
            }
            folded.add(new NamedScore(name, fold(graded.byTurn())));
        });
        if (folded.isEmpty()) {
            folded.add(new NamedScore(scorer.name(), null));
        }
        return folded;
    }

    /** The conversation's score from its turns', as the class comment says; {@code null} when no turn had one. */
    public static ScoreResult fold(List<ScoreResult> byTurn) {
        double graded = 0;
        int gradedTurns = 0;
        double unscored = 0;
        int unscoredTurns = 0;
        boolean anyFailed = false;
        List<String> reasons = new ArrayList<>();
        List<Map<String, Object>> detail = new ArrayList<>();
        Map<String, double[]> metrics = new LinkedHashMap<>();
        for (int turn = 0; turn < byTurn.size(); turn++) {
            ScoreResult result = byTurn.get(turn);
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("turn", turn);
            if (result == null) {
                entry.put("score", null);
                entry.put("passed", null);
                reasons.add("turn " + (turn + 1) + " n/a");
                detail.add(entry);
                continue;
            }
            entry.put("score", result.score());
            entry.put("passed", result.verdict().isScored() ? result.passed() : null);
            if (!result.reason().isBlank()) {
                entry.put("reason", result.reason());
            }
            detail.add(entry);
            if (result.verdict().isScored()) {
                graded += result.score();
                gradedTurns++;
                anyFailed |= result.verdict() == Verdict.FAILED;
            }
            else {
                unscored += result.score();
                unscoredTurns++;
            }
            reasons.add("turn " + (turn + 1) + " " + (result.verdict() == Verdict.PASSED ? "✔ "
                    : result.verdict() == Verdict.FAILED ? "✘ " : "")
                    + String.format(Locale.ROOT, "%.2f", result.score())
                    + (result.reason().isBlank() ? "" : " (" + result.reason().strip() + ")"));
            result.metrics().forEach((metric, value) -> {
                double[] sum = metrics.computeIfAbsent(metric, m -> new double[2]);
                sum[0] += value;
                sum[1]++;
            });
        }
        if (gradedTurns == 0 && unscoredTurns == 0) {
            return null;
        }
        ScoreResult folded = gradedTurns > 0
                ? ScoreResult.of(graded / gradedTurns, anyFailed ? Verdict.FAILED : Verdict.PASSED)
                : ScoreResult.unscored(unscored / unscoredTurns, null);
        String rule = gradedTurns > 0 ? "mean of " + gradedTurns + " graded turn" + (gradedTurns == 1 ? "" : "s")
                + (anyFailed ? ", failed as a turn failed" : "") : "no turn graded";
        folded = folded.withReason(rule + ": " + String.join("; ", reasons)).withDetail(DETAIL, detail);
        for (Map.Entry<String, double[]> metric : metrics.entrySet()) {
            folded = folded.withMetric(metric.getKey(), metric.getValue()[0] / metric.getValue()[1]);
        }
        return folded;
    }
}
